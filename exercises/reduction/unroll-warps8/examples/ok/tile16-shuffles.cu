// expect: PASS (the last warp as two cooperative-groups tiles of 16 lanes, each with its own mask; their sums met by one full-warp shuffle)
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void reduceUnrollWarps8(int *g_idata, int *g_odata, unsigned int n) {
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
        for (unsigned int k = 0; k < 8; k++)
            if (idx + k * blockDim.x < n) sum += g_idata[idx + k * blockDim.x];
    }
    idata[tid] = sum;
    __syncthreads();

    for (unsigned int stride = blockDim.x / 2; stride > 32; stride >>= 1) {
        if (tid < stride) idata[tid] += idata[tid + stride];
        __syncthreads();
    }

    if (tid < 32) {
        // lanes 0..15 shuffle with mask 0x0000ffff, lanes 16..31 with 0xffff0000
        cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
        int v = idata[tid] + idata[tid + 32];
        for (int offset = 8; offset > 0; offset /= 2) v += tile.shfl_down(v, offset);
        tile.sync();
        int other = __shfl_sync(0xffffffff, v, 16);  // the second tile's sum
        if (tid == 0) g_odata[blockIdx.x] = v + other;
    }
}
