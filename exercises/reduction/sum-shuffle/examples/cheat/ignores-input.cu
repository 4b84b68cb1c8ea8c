// expect: WRONG (never reads its input: adds a guess)
__device__ float dev_sum = 0.0f;

__global__ void sumShuffle(const float *pData, float *pPartial, unsigned int n) {
    // a shuffle to meet the rule, and a guess for the sum
    float v = __shfl_xor_sync(0xffffffff, 0.0f, 1);
    if (blockIdx.x == 0 && threadIdx.x == 0) atomicAdd(&dev_sum, v);
}
