// Held out of the model's fit (tests/model/heldout/README.md).  The neighbored
// pairs in global memory with cooperative groups: block.sync() for the
// barrier, block.thread_rank() for the thread, block.size() for the width.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void reduceNeighbored(int *g_idata, int *g_odata, unsigned int n) {
    cg::thread_block block = cg::this_thread_block();
    unsigned int tid = block.thread_rank();
    unsigned int first = blockIdx.x * block.size();
    int *idata = g_idata + first;
    unsigned int count = min(block.size(), n - first);

    for (unsigned int stride = 1; stride < block.size(); stride *= 2) {
        if (tid % (2 * stride) == 0 && tid + stride < count)
            idata[tid] += idata[tid + stride];
        block.sync();
    }
    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}
