// expect: PASS (the reference with both loads added in one expression)
__device__ float dev_sum = 0.0f;

__global__ void sumAddFirst(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float s_data[1024];
    unsigned int tx = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + tx;

    // add first: two loads per thread, one addition, one store to shared memory
    s_data[tx] = ((i < n) ? pData[i] : 0.0f) + ((i + blockDim.x < n) ? pData[i + blockDim.x] : 0.0f);
    __syncthreads();

    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tx < stride) {
            s_data[tx] += s_data[tx + stride];
        }
        __syncthreads();
    }

    if (tx == 0) atomicAdd(&dev_sum, s_data[0]);
}
