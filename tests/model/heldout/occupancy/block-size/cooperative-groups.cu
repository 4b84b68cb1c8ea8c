// Held out of the model's fit (tests/model/heldout/README.md).  The map with
// cooperative groups: the block copies the table with its thread_rank() and
// size() and meets at block.sync(); the grid-stride loop strides by the
// grid's threads.  Blocks of 1024 threads.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ unsigned int chosenBlockX = 1024;

#define TABLE 10240 // ints: 40 KiB of shared memory per block

__global__ void mapThroughTable(const int *in, const int *table, int *out, unsigned int n)
{
    __shared__ int lut[TABLE];
    cg::thread_block block = cg::this_thread_block();

    for (unsigned int i = block.thread_rank(); i < TABLE; i += block.size())
        lut[i] = table[i];
    block.sync();

    unsigned int stride = gridDim.x * block.size();
#pragma unroll 1
    for (unsigned int i = blockIdx.x * block.size() + block.thread_rank(); i < n; i += stride)
        out[i] = lut[(unsigned int)in[i] % TABLE];
}
