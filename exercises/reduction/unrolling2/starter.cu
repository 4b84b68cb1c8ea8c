/*
 * reduction/unrolling2 -- reduceUnrolling2.
 *
 * This starter is the reduceInterleaved of the previous exercise, renamed.
 * The lab now launches HALF as many blocks (grid = ceil(n / (2 * 512))), so
 * as it stands the kernel reduces only the first half of every pair of
 * blocks and is WRONG.
 *
 * Your task: let block b own the 2 * blockDim.x elements starting at
 * b * 2 * blockDim.x.  Each thread first adds its element and the one
 * blockDim.x further on, then the block runs the interleaved tree over the
 * first half.  Correct for every n.  See task.md.
 */
__global__ void reduceUnrolling2(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;

    // this block's slice of the input
    int *idata = g_idata + blockIdx.x * blockDim.x;

    // past n (only in the last block): a zero that changes no sum
    if (idx >= n) idata[tid] = 0;
    __syncthreads();

    // in-place reduction in global memory
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride) {
            idata[tid] += idata[tid + stride];
        }
        __syncthreads();
    }

    // write result for this block to global mem
    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}
