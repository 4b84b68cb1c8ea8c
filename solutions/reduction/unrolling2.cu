/*
 * Reference for reduction/unrolling2: the notes' reduceUnrolling2, made
 * correct for any n >= 1.
 *
 * Contract (reduce-int, partials, unroll 2): grid = ceil(n / (2 * blockDim.x));
 * block b owns the 2 * blockDim.x elements from b * 2 * blockDim.x (fewer in
 * the last block), reduces them in place and writes their sum to g_odata[b].
 *
 * Each thread first adds its element of the block's first half and the one
 * blockDim.x further on (either may lie past n: then it counts as 0), and
 * stores the pair's sum in the first half.  Then the interleaved tree runs
 * over the first half as in reduceInterleaved.
 */
__global__ void reduceUnrolling2(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 2 + threadIdx.x;

    // this block's slice of the input: two blocks' worth
    int *idata = g_idata + blockIdx.x * blockDim.x * 2;

    // unrolling 2 data blocks
    int a = idx < n ? g_idata[idx] : 0;
    int b = idx + blockDim.x < n ? g_idata[idx + blockDim.x] : 0;
    idata[tid] = a + b;
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
