// Held out of the model's fit (tests/model/heldout/README.md).  Unrolling 2
// with cooperative groups: block.sync() for every barrier, the two elements'
// bounds in one helper.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ __forceinline__ int at(const int *p, unsigned int i, unsigned int n) {
    return i < n ? p[i] : 0;
}

__global__ void reduceUnrolling2(int *g_idata, int *g_odata, unsigned int n) {
    cg::thread_block block = cg::this_thread_block();
    unsigned int tid = block.thread_rank();
    unsigned int width = block.size();
    unsigned int idx = blockIdx.x * width * 2 + tid;
    int *idata = g_idata + blockIdx.x * width * 2;

    idata[tid] = at(g_idata, idx, n) + at(g_idata, idx + width, n);
    block.sync();
    for (unsigned int stride = width / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        block.sync();
    }
    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}
