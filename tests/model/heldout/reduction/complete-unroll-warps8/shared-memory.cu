// Held out of the model's fit (tests/model/heldout/README.md).  The complete
// unroll with the tree in shared memory: eight loads (written out, no loop)
// summed into a tile, the rounds 256 .. 64 written out, the last warp by
// shuffles.
#define BLOCK 512

__global__ void reduceCompleteUnrollWarps8(int *g_idata, int *g_odata, unsigned int n) {
    __shared__ int tile[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;
    int sum = 0;

#pragma unroll
    for (unsigned int k = 0; k < 8; k++)
        if (idx + k * blockDim.x < n) sum += g_idata[idx + k * blockDim.x];
    tile[tid] = sum;
    __syncthreads();
    if (blockDim.x >= 512 && tid < 256) tile[tid] += tile[tid + 256];
    __syncthreads();
    if (blockDim.x >= 256 && tid < 128) tile[tid] += tile[tid + 128];
    __syncthreads();
    if (blockDim.x >= 128 && tid < 64) tile[tid] += tile[tid + 64];
    __syncthreads();
    if (tid < 32) {
        int v = tile[tid] + tile[tid + 32];
        v += __shfl_down_sync(0xffffffffu, v, 16);
        v += __shfl_down_sync(0xffffffffu, v, 8);
        v += __shfl_down_sync(0xffffffffu, v, 4);
        v += __shfl_down_sync(0xffffffffu, v, 2);
        v += __shfl_down_sync(0xffffffffu, v, 1);
        if (tid == 0) g_odata[blockIdx.x] = v;
    }
}
