/*
 * reduction/complete-unroll-warps8 -- reduceCompleteUnrollWarps8.
 *
 * This starter is the reduceUnrollWarps8 of the previous exercise, renamed:
 * correct and as fast as the baseline, but its tree is still a loop (a loop
 * counter, a compare and a branch back each round).  The exercise forbids
 * loops (CONSTRAINT).
 *
 * Your task: blockDim.x is at most 1024, so the tree has at most four rounds
 * above the last warp.  Write each round out as an if on blockDim.x, with its
 * __syncthreads, and leave no loop in the kernel.  See task.md.
 */
__global__ void reduceCompleteUnrollWarps8(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;

    // this block's slice of the input: eight blocks' worth
    int *idata = g_idata + blockIdx.x * blockDim.x * 8;

    // unrolling 8 data blocks
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
        for (unsigned int k = 0; k < 8; k++)
            if (idx + k * blockDim.x < n) sum += g_idata[idx + k * blockDim.x];
    }
    idata[tid] = sum;
    __syncthreads();

    // in-place reduction in global memory, down to 64 elements
    for (unsigned int stride = blockDim.x / 2; stride > 32; stride >>= 1) {
        if (tid < stride) {
            idata[tid] += idata[tid + stride];
        }
        __syncthreads();
    }

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
