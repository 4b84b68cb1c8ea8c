// expect: PASS (the last warp as four tiles of 8 lanes, each shuffling with its own mask, written out with no loop; the four sums met by full-warp shuffles)
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void reduceCompleteUnrollWarps8(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x * 8;

    int sum = 0;
    if (idx + 7 * blockDim.x < n) {
        sum = g_idata[idx] + g_idata[idx + blockDim.x] + g_idata[idx + 2 * blockDim.x] +
              g_idata[idx + 3 * blockDim.x] + g_idata[idx + 4 * blockDim.x] +
              g_idata[idx + 5 * blockDim.x] + g_idata[idx + 6 * blockDim.x] +
              g_idata[idx + 7 * blockDim.x];
    } else {
#pragma unroll
        for (unsigned int k = 0; k < 8; k++)
            if (idx + k * blockDim.x < n) sum += g_idata[idx + k * blockDim.x];
    }
    idata[tid] = sum;
    __syncthreads();

    if (blockDim.x >= 1024 && tid < 512) idata[tid] += idata[tid + 512];
    __syncthreads();
    if (blockDim.x >= 512 && tid < 256) idata[tid] += idata[tid + 256];
    __syncthreads();
    if (blockDim.x >= 256 && tid < 128) idata[tid] += idata[tid + 128];
    __syncthreads();
    if (blockDim.x >= 128 && tid < 64) idata[tid] += idata[tid + 64];
    __syncthreads();

    if (tid < 32) {
        cg::thread_block_tile<8> tile = cg::tiled_partition<8>(cg::this_thread_block());
        int v = idata[tid] + idata[tid + 32];
        v += tile.shfl_down(v, 4);
        v += tile.shfl_down(v, 2);
        v += tile.shfl_down(v, 1);
        tile.sync();
        // the tiles' first lanes are 0, 8, 16, 24
        v += __shfl_down_sync(0xffffffff, v, 16);
        v += __shfl_down_sync(0xffffffff, v, 8);
        if (tid == 0) g_odata[blockIdx.x] = v;
    }
}
