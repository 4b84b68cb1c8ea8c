// Held out of the model's fit (tests/model/heldout/README.md).  The template
// version with the tree in shared memory: the tile's size and every round
// decided by iBlockSize at compile time, the last warp by shuffles.
template <unsigned int iBlockSize>
__global__ void reduceCompleteUnroll(int *g_idata, int *g_odata, unsigned int n) {
    __shared__ int tile[iBlockSize];
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * iBlockSize * 8 + threadIdx.x;
    int sum = 0;

#pragma unroll
    for (unsigned int k = 0; k < 8; k++)
        if (idx + k * iBlockSize < n) sum += g_idata[idx + k * iBlockSize];
    tile[tid] = sum;
    __syncthreads();
    if (iBlockSize >= 1024 && tid < 512) tile[tid] += tile[tid + 512];
    if (iBlockSize >= 1024) __syncthreads();
    if (iBlockSize >= 512 && tid < 256) tile[tid] += tile[tid + 256];
    if (iBlockSize >= 512) __syncthreads();
    if (iBlockSize >= 256 && tid < 128) tile[tid] += tile[tid + 128];
    if (iBlockSize >= 256) __syncthreads();
    if (iBlockSize >= 128 && tid < 64) tile[tid] += tile[tid + 64];
    if (iBlockSize >= 128) __syncthreads();
    if (tid < 32) {
        int v = tile[tid] + tile[tid + 32];
        v += __shfl_xor_sync(0xffffffffu, v, 16);
        v += __shfl_xor_sync(0xffffffffu, v, 8);
        v += __shfl_xor_sync(0xffffffffu, v, 4);
        v += __shfl_xor_sync(0xffffffffu, v, 2);
        v += __shfl_xor_sync(0xffffffffu, v, 1);
        if (tid == 0) g_odata[blockIdx.x] = v;
    }
}
