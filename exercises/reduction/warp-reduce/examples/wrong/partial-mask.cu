// expect: WRONG (only the lanes with a warp sum call __reduce_add_sync, with the full mask: lanes 16-31 never arrive)
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__global__ void reduceWarpCollective(int *g_idata, int *g_odata, unsigned int n) {
    __shared__ int s_warp[32];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;

    // eight elements per thread: eight independent loads where all are in range, and the
    // last block's tail one by one
    int sum = 0;
    if (idx + 7 * blockDim.x < n) {
        int a1 = g_idata[idx];
        int a2 = g_idata[idx + blockDim.x];
        int a3 = g_idata[idx + 2 * blockDim.x];
        int a4 = g_idata[idx + 3 * blockDim.x];
        int b1 = g_idata[idx + 4 * blockDim.x];
        int b2 = g_idata[idx + 5 * blockDim.x];
        int b3 = g_idata[idx + 6 * blockDim.x];
        int b4 = g_idata[idx + 7 * blockDim.x];
        sum = a1 + a2 + a3 + a4 + b1 + b2 + b3 + b4;
    } else {
#pragma unroll
        for (unsigned int k = 0; k < 8; k++)
            if (idx + k * blockDim.x < n) sum += g_idata[idx + k * blockDim.x];
    }

    // each warp's 32 sums in one instruction (redux.sync)
    int warpSum = cg::reduce(warp, sum, cg::plus<int>());
    if (warp.thread_rank() == 0) s_warp[warp.meta_group_rank()] = warpSum;
    block.sync();

    // warp 0 adds the warps' sums: every lane of it takes part, lanes past the warps add 0
    if (warp.meta_group_rank() == 0) {
        unsigned int lane = warp.thread_rank();
        if (lane < warp.meta_group_size()) {
            int v = __reduce_add_sync(0xffffffffu, s_warp[lane]);
            if (lane == 0) g_odata[blockIdx.x] = v;
        }
    }
}
