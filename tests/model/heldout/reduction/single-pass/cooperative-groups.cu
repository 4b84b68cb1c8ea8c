// Held out of the model's fit (tests/model/heldout/README.md).  The single
// pass with cooperative groups: the grid-stride loop over int4 with two
// accumulators, each warp a thread_block_tile<32> reducing by its
// shfl_down, the block's warp sums through shared memory, one atomic per block.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void reduceSinglePass(int *g_idata, int *g_odata, unsigned int n) {
    __shared__ int warp_sums[32];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    const size_t threads = (size_t)gridDim.x * block.size();
    const size_t first = (size_t)blockIdx.x * block.size() + block.thread_rank();
    const size_t quads = n / 4;
    const int4 *in4 = reinterpret_cast<const int4 *>(g_idata);
    int s0 = 0, s1 = 0;
    size_t i = first;

    for (; i + threads < quads; i += 2 * threads) {
        int4 a = in4[i], b = in4[i + threads];
        s0 += (a.x + a.y) + (a.z + a.w);
        s1 += (b.x + b.y) + (b.z + b.w);
    }
    if (i < quads) {
        int4 a = in4[i];
        s0 += (a.x + a.y) + (a.z + a.w);
    }
    if (first < n - quads * 4) s1 += g_idata[quads * 4 + first];
    int v = s0 + s1;
    for (int offset = 16; offset > 0; offset >>= 1)
        v += warp.shfl_down(v, offset);
    if (warp.thread_rank() == 0) warp_sums[warp.meta_group_rank()] = v;
    block.sync();
    if (warp.meta_group_rank() == 0) {
        v = warp.thread_rank() < warp.meta_group_size() ? warp_sums[warp.thread_rank()] : 0;
        for (int offset = 16; offset > 0; offset >>= 1)
            v += warp.shfl_down(v, offset);
        if (warp.thread_rank() == 0) atomicAdd(g_odata, v);
    }
}
