// Held out of the model's fit (tests/model/heldout/README.md).  The two-level
// kernel with shuffles in every warp: each warp adds its lanes' pairs, the 32
// warp sums meet in shared memory, the first warp adds them; the block's sum
// goes to its own slot of pPartial.
__device__ __forceinline__ float warpSum(float v) {
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, offset);
    return v;
}

__global__ void sumTwoLevel(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float warp_sums[32];
    unsigned int tx = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + tx;

    float v = ((i < n) ? pData[i] : 0.0f) + ((i + blockDim.x < n) ? pData[i + blockDim.x] : 0.0f);
    v = warpSum(v);
    if (tx % 32 == 0) warp_sums[tx / 32] = v;
    __syncthreads();
    if (tx < 32) {
        v = warpSum(tx < blockDim.x / 32 ? warp_sums[tx] : 0.0f);
        if (tx == 0) pPartial[blockIdx.x] = v;
    }
}
