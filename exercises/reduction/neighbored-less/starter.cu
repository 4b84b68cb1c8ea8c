/*
 * reduction/neighbored-less -- reduceNeighboredLess, the second GPU rung.
 *
 * This starter is the tail-safe reduceNeighbored of the previous exercise,
 * renamed.  It is correct for every n, and exactly as slow as the baseline:
 * in round k only threads whose tid is a multiple of 2^k work, and they are
 * spread over every warp of the block, so all 16 warps stay busy to the end.
 *
 * Your task: rearrange the index so that the working threads are contiguous.
 * Let thread tid handle the pair that starts at
 *
 *     index = 2 * stride * tid
 *
 * (tid 0, 1, 2, ... take pairs 0, 2*stride, 4*stride, ...), and keep the
 * kernel correct for every n: add a partner only if it exists.  The sums go
 * in the same places as before; only which thread does each one changes.
 * No atomics.  See task.md; `cudalab grade reduction/neighbored-less` checks it.
 */
__global__ void reduceNeighboredLess(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    unsigned int first = blockIdx.x * blockDim.x;

    // this block's slice of the input
    int *idata = g_idata + first;

    // how many elements this block really owns (fewer in the last block)
    unsigned int count = min(blockDim.x, n - first);

    // in-place reduction in global memory, neighbored pairs
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        if ((tid % (2 * stride)) == 0 && tid + stride < count) {
            idata[tid] += idata[tid + stride];
        }

        // every thread of the block, working or not, waits here
        __syncthreads();
    }

    // write result for this block to global mem
    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}
