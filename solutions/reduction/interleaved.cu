/*
 * Reference for reduction/interleaved: the notes' reduceInterleaved, made
 * correct for any n >= 1.
 *
 * Contract (reduce-int, partials): grid = ceil(n / blockDim.x), blockDim.x a
 * power of two; block b reduces its elements in place and writes their sum to
 * g_odata[b].  The input buffer is padded to whole blocks, so the last block
 * may write past n.
 *
 * Interleaved pairs: in the round with distance stride (blockDim.x / 2, then
 * halved), thread tid < stride adds idata[tid + stride] into idata[tid].  The
 * working threads are contiguous, and so are the addresses a warp touches.
 *
 * Differences from the notes' form: no early return (every thread reaches
 * every __syncthreads); the elements the last block does not own are set to 0
 * first, so the tree can always run over blockDim.x elements.
 */
__global__ void reduceInterleaved(int *g_idata, int *g_odata, unsigned int n) {
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
