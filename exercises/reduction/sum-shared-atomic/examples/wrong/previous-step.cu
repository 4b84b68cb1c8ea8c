// expect: CONSTRAINT (the previous step's global atomic per element: no shared atomic at all)
__device__ float dev_sum = 0.0f;

__global__ void sumSharedAtomic(const float *pData, float *pPartial, unsigned int n) {
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i < n) atomicAdd(&dev_sum, pData[i]);
}
