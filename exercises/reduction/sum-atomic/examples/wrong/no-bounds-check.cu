// expect: WRONG (no i < n test: the threads of the last block past n add the padding)
__device__ float dev_sum = 0.0f;

__global__ void sumAtomic(const float *pData, float *pPartial, unsigned int n) {
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

    // 16M additions into one address: the hardware does them one after another
    atomicAdd(&dev_sum, pData[i]);
}
