// expect: CONSTRAINT (cooperative_groups::reduce on a warp is redux.sync: a warp collective, which this step forbids)
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void reduceUnrolling2(int *g_idata, int *g_odata, unsigned int n) {
    __shared__ int warp_sums[32];
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 2 + threadIdx.x;

    int v = 0;
    if (idx < n) v += g_idata[idx];
    if (idx + blockDim.x < n) v += g_idata[idx + blockDim.x];
    // each warp summed by the library instead of this step's tree
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
    v = cg::reduce(warp, v, cg::plus<int>());
    if (warp.thread_rank() == 0) warp_sums[tid / 32] = v;
    __syncthreads();
    if (tid == 0) {
        int s = 0;
        for (unsigned int w = 0; w < blockDim.x / 32; w++) s += warp_sums[w];
        g_odata[blockIdx.x] = s;
    }
}
