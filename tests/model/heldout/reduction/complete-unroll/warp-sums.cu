// Held out of the model's fit (tests/model/heldout/README.md).  The template
// version with no tree in memory: every warp sums its lanes' eight elements by
// shuffles, the iBlockSize / 32 warp sums meet in shared memory, and the first
// warp adds them by shuffles (the rounds written out by a template helper).
template <int Offset>
__device__ __forceinline__ int warpSum(int v) {
    v += __shfl_down_sync(0xffffffffu, v, Offset);
    return warpSum<Offset / 2>(v);
}
template <>
__device__ __forceinline__ int warpSum<0>(int v) {
    return v;
}

template <unsigned int iBlockSize>
__global__ void reduceCompleteUnroll(int *g_idata, int *g_odata, unsigned int n) {
    __shared__ int warp_sums[iBlockSize / 32];
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * iBlockSize * 8 + threadIdx.x;
    int v = 0;

#pragma unroll
    for (unsigned int k = 0; k < 8; k++)
        if (idx + k * iBlockSize < n) v += g_idata[idx + k * iBlockSize];
    v = warpSum<16>(v);
    if (tid % 32 == 0) warp_sums[tid / 32] = v;
    __syncthreads();
    if (tid < 32) {
        v = tid < iBlockSize / 32 ? warp_sums[tid] : 0;
        v = warpSum<16>(v);
        if (tid == 0) g_odata[blockIdx.x] = v;
    }
}
