// expect: CONSTRAINT (atomicAdd_block on shared memory: this step forbids shared-memory atomics)
__device__ float dev_sum = 0.0f;

__global__ void sumTournamentStrided(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float s_sum;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (threadIdx.x == 0) s_sum = 0.0f;
    __syncthreads();
    if (i < n) atomicAdd_block(&s_sum, pData[i]);
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(&dev_sum, s_sum);
}
