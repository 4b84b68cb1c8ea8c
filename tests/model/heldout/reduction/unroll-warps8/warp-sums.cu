// Held out of the model's fit (tests/model/heldout/README.md).  No tree in
// memory at all: each warp sums its lanes' eight elements with shuffles, its
// lane 0 puts the warp's sum in shared memory, and the first warp adds the
// block's sixteen warp sums with shuffles again.
#define WARPS 32

__global__ void reduceUnrollWarps8(int *g_idata, int *g_odata, unsigned int n) {
    __shared__ int warp_sums[WARPS];
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;
    int v = 0;

    if (idx + 7 * blockDim.x < n) {
        int a[8];
#pragma unroll
        for (int k = 0; k < 8; k++)
            a[k] = g_idata[idx + k * blockDim.x];
#pragma unroll
        for (int k = 0; k < 8; k++)
            v += a[k];
    } else {
        for (unsigned int k = 0; k < 8; k++)
            if (idx + k * blockDim.x < n) v += g_idata[idx + k * blockDim.x];
    }
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    if (tid % 32 == 0) warp_sums[tid / 32] = v;
    __syncthreads();
    if (tid < 32) {
        v = tid < blockDim.x / 32 ? warp_sums[tid] : 0;
        for (int offset = 16; offset > 0; offset >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, offset);
        if (tid == 0) g_odata[blockIdx.x] = v;
    }
}
