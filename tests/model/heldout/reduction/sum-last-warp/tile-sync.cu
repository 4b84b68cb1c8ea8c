// Held out of the model's fit (tests/model/heldout/README.md).  The last warp
// as a cooperative-groups tile of 32: its rounds meet at warp.sync() (a
// bar.warp.sync), the block's at block.sync().
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ float dev_sum = 0.0f;

__global__ void sumLastWarp(const float *pData, float *pPartial, unsigned int n) {
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
        float v = s_data[tx];
        for (unsigned int stride = 32; stride > 0; stride >>= 1) {
            v += s_data[tx + stride];
            warp.sync();
            s_data[tx] = v;
            warp.sync();
        }
        if (tx == 0) atomicAdd(&dev_sum, v);
    }
}
