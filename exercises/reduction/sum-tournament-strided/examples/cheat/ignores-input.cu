// expect: WRONG (ignores the input: adds a constant per element, which the check on random inputs catches)
__device__ float dev_sum = 0.0f;

__global__ void sumTournamentStrided(const float *pData, float *pPartial, unsigned int n) {
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0) {
        unsigned int owned = min(blockDim.x, n - blockIdx.x * blockDim.x);
        atomicAdd(&dev_sum, 0.5f * owned);
    }
    (void)pData;
    (void)i;
}
