// expect: CONSTRAINT (a warp shuffle sums the block: this step forbids warp collectives)
__device__ float dev_sum = 0.0f;

__global__ void sumTournamentStrided(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float s_warp[32];
    unsigned int tx = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + tx;
    float v = (i < n) ? pData[i] : 0.0f;

    for (int d = 16; d > 0; d >>= 1) v += __shfl_down_sync(0xffffffffu, v, d);
    if (tx % 32 == 0) s_warp[tx / 32] = v;
    __syncthreads();
    if (tx < 32) {
        v = s_warp[tx];
        for (int d = 16; d > 0; d >>= 1) v += __shfl_down_sync(0xffffffffu, v, d);
        if (tx == 0) atomicAdd(&dev_sum, v);
    }
}
