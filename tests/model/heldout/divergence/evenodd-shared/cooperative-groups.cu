// Held out of the model's fit (tests/model/heldout/README.md).  Even-odd
// through shared memory with cooperative groups: the block's barrier is
// block.sync(), and the two halves are written by one expression each.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define BLOCK 512

__global__ void shuffleEvenOddShared(const int *src, int *dst, unsigned int n)
{
    __shared__ int tile[BLOCK];
    cg::thread_block block = cg::this_thread_block();
    unsigned int t = block.thread_rank();
    unsigned int base = blockIdx.x * BLOCK;
    unsigned int count = n - base < BLOCK ? n - base : BLOCK;
    unsigned int half = count / 2;

    if (t < count) {
        int v = src[base + t];
        if (t % 2 == 0)
            tile[t / 2] = v;
        else
            tile[half + t / 2] = v;
    }
    block.sync();
    if (t < half)
        dst[base / 2 + t] = tile[t];
    else if (t < count)
        dst[n / 2 + base / 2 + (t - half)] = tile[t];
}
