// Held out of the model's fit (tests/model/heldout/README.md).  Half-by-half
// through shared memory with cooperative groups: the block is a
// thread_block, its barrier block.sync(), its rank thread_rank().
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define BLOCK 512

__global__ void shuffleHalfHalfShared(const int *src, int *dst, unsigned int n)
{
    __shared__ int tile[BLOCK];
    cg::thread_block block = cg::this_thread_block();
    unsigned int t = block.thread_rank();
    unsigned int base = blockIdx.x * BLOCK;
    unsigned int count = n - base < BLOCK ? n - base : BLOCK;
    unsigned int half = count / 2;

    if (t < count)
        tile[t] = src[base + t];
    block.sync();
    if (t < count) {
        unsigned int right = t >= half;
        unsigned int k = t - right * half;
        dst[right * (n / 2) + base / 2 + k] = tile[2 * k + right];
    }
}
