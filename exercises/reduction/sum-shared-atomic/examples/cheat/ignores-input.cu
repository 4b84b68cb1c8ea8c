// expect: WRONG (never reads its input: adds a guess)
__device__ float dev_sum = 0.0f;

__global__ void sumSharedAtomic(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float s_sum;

    // a shared atomic to meet the rule, and a guess for the sum
    if (threadIdx.x == 0) s_sum = 0.0f;
    __syncthreads();
    atomicAdd_block(&s_sum, 0.0f);
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(&dev_sum, s_sum);
}
