// expect: WRONG (dev_sum += without atomicAdd: the threads' updates overwrite each other)
__device__ float dev_sum = 0.0f;

__global__ void sumAtomic(const float *pData, float *pPartial, unsigned int n) {
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

    // 16M additions into one address: the hardware does them one after another
    if (i < n) dev_sum += pData[i];
}
