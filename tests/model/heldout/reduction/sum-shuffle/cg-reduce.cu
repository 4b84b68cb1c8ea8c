// Held out of the model's fit (tests/model/heldout/README.md).  The last warp
// as a cooperative-groups tile: cg::reduce adds its 32 values (by shuffles).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__device__ float dev_sum = 0.0f;

__global__ void sumShuffle(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float s_data[1024];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    unsigned int tx = block.thread_rank();
    unsigned int i = blockIdx.x * (block.size() * 2) + tx;

    float a = (i < n) ? pData[i] : 0.0f;
    float b = (i + block.size() < n) ? pData[i + block.size()] : 0.0f;
    s_data[tx] = a + b;
    block.sync();
    for (unsigned int stride = block.size() / 2; stride > 32; stride >>= 1) {
        if (tx < stride)
            s_data[tx] += s_data[tx + stride];
        block.sync();
    }
    if (warp.meta_group_rank() == 0) {
        float v = cg::reduce(warp, s_data[tx] + s_data[tx + 32], cg::plus<float>());
        if (tx == 0) atomicAdd(&dev_sum, v);
    }
}
