// expect: PASS (cooperative_groups::reduce on tiles of 16 lanes: a redux.sync per half-warp, each over its own 16 lanes)
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void reduceUnrollWarps8(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x * 8;

    int sum = 0;
    if (idx + 7 * blockDim.x < n) {
        sum = g_idata[idx] + g_idata[idx + blockDim.x] + g_idata[idx + 2 * blockDim.x] +
              g_idata[idx + 3 * blockDim.x] + g_idata[idx + 4 * blockDim.x] +
              g_idata[idx + 5 * blockDim.x] + g_idata[idx + 6 * blockDim.x] +
              g_idata[idx + 7 * blockDim.x];
    } else {
        for (unsigned int k = 0; k < 8; k++)
            if (idx + k * blockDim.x < n) sum += g_idata[idx + k * blockDim.x];
    }
    idata[tid] = sum;
    __syncthreads();

    for (unsigned int stride = blockDim.x / 2; stride > 32; stride >>= 1) {
        if (tid < stride) idata[tid] += idata[tid + stride];
        __syncthreads();
    }

    if (tid < 32) {
        cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
        int v = cg::reduce(tile, idata[tid] + idata[tid + 32], cg::plus<int>());
        int other = __shfl_sync(0xffffffff, v, 16);
        if (tid == 0) g_odata[blockIdx.x] = v + other;
    }
}
