// expect: COMPILE_ERROR (atomicAdd given the float, not its address)
__device__ float dev_sum = 0.0f;

__global__ void sumAtomic(const float *pData, float *pPartial, unsigned int n) {
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

    // 16M additions into one address: the hardware does them one after another
    if (i < n) atomicAdd(dev_sum, pData[i]);
}
