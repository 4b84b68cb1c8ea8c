// expect: PASS (the reference with the threads past n leaving first)
__device__ float dev_sum = 0.0f;

__global__ void sumAtomic(const float *pData, float *pPartial, unsigned int n) {
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

    // 16M additions into one address: the hardware does them one after another
    if (i >= n) return;
    atomicAdd(&dev_sum, pData[i]);
}
