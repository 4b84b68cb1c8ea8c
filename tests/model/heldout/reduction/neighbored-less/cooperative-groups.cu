// Held out of the model's fit (tests/model/heldout/README.md).  The rearranged
// neighbored pairs in global memory with cooperative groups (block.sync(),
// block.thread_rank()), the pair's first element through a pointer.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void reduceNeighboredLess(int *g_idata, int *g_odata, unsigned int n) {
    cg::thread_block block = cg::this_thread_block();
    unsigned int tid = block.thread_rank();
    unsigned int first = blockIdx.x * block.size();
    int *idata = g_idata + first;
    unsigned int count = min(block.size(), n - first);

    for (unsigned int stride = 1; stride < block.size(); stride <<= 1) {
        unsigned int index = 2 * stride * tid;
        if (index + stride < count) {
            int *p = idata + index;
            p[0] += p[stride];
        }
        block.sync();
    }
    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}
