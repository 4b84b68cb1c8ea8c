// Held out of the model's fit (tests/model/heldout/README.md).  Sequential
// addressing with cooperative groups (block.sync(), block.size()).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ float dev_sum = 0.0f;

__global__ void sumReversed(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float s_data[1024];
    cg::thread_block block = cg::this_thread_block();
    unsigned int tx = block.thread_rank();
    unsigned int i = blockIdx.x * block.size() + tx;

    s_data[tx] = (i < n) ? pData[i] : 0.0f;
    block.sync();
    for (unsigned int stride = block.size() / 2; stride > 0; stride >>= 1) {
        if (tx < stride)
            s_data[tx] += s_data[tx + stride];
        block.sync();
    }
    if (tx == 0) atomicAdd(&dev_sum, s_data[0]);
}
