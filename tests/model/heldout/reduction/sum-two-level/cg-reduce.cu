// Held out of the model's fit (tests/model/heldout/README.md).  The two-level
// kernel with cooperative groups: every warp a tile reduced by cg::reduce,
// the warps' sums in shared memory, the first tile reduces them; the block's
// sum to pPartial[blockIdx.x].
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void sumTwoLevel(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float warp_sums[32];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    unsigned int tx = block.thread_rank();
    unsigned int i = blockIdx.x * (block.size() * 2) + tx;

    float v = ((i < n) ? pData[i] : 0.0f) + ((i + block.size() < n) ? pData[i + block.size()] : 0.0f);
    v = cg::reduce(warp, v, cg::plus<float>());
    if (warp.thread_rank() == 0) warp_sums[warp.meta_group_rank()] = v;
    block.sync();
    if (warp.meta_group_rank() == 0) {
        v = warp.thread_rank() < warp.meta_group_size() ? warp_sums[warp.thread_rank()] : 0.0f;
        v = cg::reduce(warp, v, cg::plus<float>());
        if (warp.thread_rank() == 0) pPartial[blockIdx.x] = v;
    }
}
