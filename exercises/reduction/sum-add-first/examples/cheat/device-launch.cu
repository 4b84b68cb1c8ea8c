// expect: COMPILE_ERROR (launches a kernel from the device: the step is built without -rdc)
__device__ float dev_sum = 0.0f;

// one thread adds the block's slice; launched from the device, it looks like no work
__global__ void sumSlice(const float *p, unsigned int count) {
    float s = 0.0f;
    for (unsigned int i = 0; i < count; i++) s += p[i];
    atomicAdd(&dev_sum, s);
}

__global__ void sumAddFirst(const float *pData, float *pPartial, unsigned int n) {
    unsigned int first = blockIdx.x * blockDim.x * 2;

    if (threadIdx.x == 0) sumSlice<<<1, 1>>>(pData + first, min(blockDim.x * 2, n - first));
}
