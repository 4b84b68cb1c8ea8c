// Held out of the model's fit (tests/model/heldout/README.md).  Add first with
// cooperative groups (block.sync(), block.size()), the loads' bounds in a
// helper.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ float dev_sum = 0.0f;

__device__ __forceinline__ float at(const float *p, unsigned int i, unsigned int n) {
    return i < n ? p[i] : 0.0f;
}

__global__ void sumAddFirst(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float s_data[1024];
    cg::thread_block block = cg::this_thread_block();
    unsigned int tx = block.thread_rank();
    unsigned int i = blockIdx.x * (block.size() * 2) + tx;

    s_data[tx] = at(pData, i, n) + at(pData, i + block.size(), n);
    block.sync();
    for (unsigned int stride = block.size() / 2; stride > 0; stride >>= 1) {
        if (tx < stride)
            s_data[tx] += s_data[tx + stride];
        block.sync();
    }
    if (tx == 0) atomicAdd(&dev_sum, s_data[0]);
}
