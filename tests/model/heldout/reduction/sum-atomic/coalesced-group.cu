// Held out of the model's fit (tests/model/heldout/README.md).  Cooperative
// groups: the threads with an element form a coalesced group, cg::reduce adds
// their values, and the group's first thread makes the one atomic.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__device__ float dev_sum = 0.0f;

__global__ void sumAtomic(const float *pData, float *pPartial, unsigned int n) {
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i < n) {
        cg::coalesced_group active = cg::coalesced_threads();
        float v = cg::reduce(active, pData[i], cg::plus<float>());
        if (active.thread_rank() == 0) atomicAdd(&dev_sum, v);
    }
}
