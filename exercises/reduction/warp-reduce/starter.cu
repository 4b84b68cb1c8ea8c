/*
 * reduction/warp-reduce -- reduceWarpCollective.
 *
 * This starter is the unrolled kernel of the earlier steps (reduceCompleteUnrollWarps8,
 * renamed): eight elements per thread, a tree in shared memory with a barrier per
 * round, and the last warp by shuffles.  It is correct, but this step requires the
 * warp-level reduction instruction (redux.sync), which it does not use: CONSTRAINT.
 *
 * Your task: add each warp's 32 sums with cooperative groups
 * (cg::reduce(tile, v, cg::plus<int>()) on a cg::thread_block_tile<32>), put the
 * warps' sums in shared memory, and let warp 0 add them with __reduce_add_sync.
 * See task.md.
 */
__global__ void reduceWarpCollective(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;

    // this block's slice of the input: eight blocks' worth
    int *idata = g_idata + blockIdx.x * blockDim.x * 8;

    // unrolling 8 data blocks; the last block's tail without a loop either
    int sum = 0;
    if (idx + 7 * blockDim.x < n) {
        int a1 = g_idata[idx];
        int a2 = g_idata[idx + blockDim.x];
        int a3 = g_idata[idx + 2 * blockDim.x];
        int a4 = g_idata[idx + 3 * blockDim.x];
        int b1 = g_idata[idx + 4 * blockDim.x];
        int b2 = g_idata[idx + 5 * blockDim.x];
        int b3 = g_idata[idx + 6 * blockDim.x];
        int b4 = g_idata[idx + 7 * blockDim.x];
        sum = a1 + a2 + a3 + a4 + b1 + b2 + b3 + b4;
    } else {
#pragma unroll
        for (unsigned int k = 0; k < 8; k++)
            if (idx + k * blockDim.x < n) sum += g_idata[idx + k * blockDim.x];
    }
    idata[tid] = sum;
    __syncthreads();

    // in-place reduction and complete unroll
    if (blockDim.x >= 1024 && tid < 512) idata[tid] += idata[tid + 512];
    __syncthreads();
    if (blockDim.x >= 512 && tid < 256) idata[tid] += idata[tid + 256];
    __syncthreads();
    if (blockDim.x >= 256 && tid < 128) idata[tid] += idata[tid + 128];
    __syncthreads();
    if (blockDim.x >= 128 && tid < 64) idata[tid] += idata[tid + 64];
    __syncthreads();

    // the last warp: 64 elements into 32 registers, then shuffles
    if (tid < 32) {
        int v = idata[tid] + idata[tid + 32];
        v += __shfl_down_sync(0xffffffff, v, 16);
        v += __shfl_down_sync(0xffffffff, v, 8);
        v += __shfl_down_sync(0xffffffff, v, 4);
        v += __shfl_down_sync(0xffffffff, v, 2);
        v += __shfl_down_sync(0xffffffff, v, 1);
        if (tid == 0) g_odata[blockIdx.x] = v;
    }
}
