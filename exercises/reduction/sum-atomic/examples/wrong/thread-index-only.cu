// expect: WRONG (i = threadIdx.x: every block adds the first block's elements)
__device__ float dev_sum = 0.0f;

__global__ void sumAtomic(const float *pData, float *pPartial, unsigned int n) {
    unsigned int i = threadIdx.x;

    // 16M additions into one address: the hardware does them one after another
    if (i < n) atomicAdd(&dev_sum, pData[i]);
}
