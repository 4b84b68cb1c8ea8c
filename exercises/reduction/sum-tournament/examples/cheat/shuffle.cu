// expect: CONSTRAINT (a later step's warp shuffles, which this step forbids)
__device__ float dev_sum = 0.0f;

__global__ void sumTournament(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float warp_sums[32];
    unsigned int tx = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x * 1 + tx;

    float v = 0.0f;
    for (unsigned int k = 0; k < 1; k++)
        if (i + k * blockDim.x < n) v += pData[i + k * blockDim.x];
    // a later step's warp shuffles instead of this step's tree
    for (int mask = 16; mask > 0; mask >>= 1) v += __shfl_xor_sync(0xffffffff, v, mask);
    if (tx % 32 == 0) warp_sums[tx / 32] = v;
    __syncthreads();
    if (tx == 0) {
        float s = 0.0f;
        for (unsigned int w = 0; w < blockDim.x / 32; w++) s += warp_sums[w];
        atomicAdd(&dev_sum, s);
    }
}
