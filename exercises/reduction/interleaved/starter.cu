/*
 * reduction/interleaved -- reduceInterleaved, the third GPU rung.
 *
 * This starter is the tail-safe reduceNeighboredLess of the previous
 * exercise, renamed: correct for every n, and exactly as fast as the
 * baseline.  Its pairs are neighbours (distance 1, 2, 4, ...).
 *
 * Your task: pair elements half the block apart instead.  Start with
 * stride = blockDim.x / 2 and halve it each round; thread tid < stride adds
 * idata[tid + stride] into idata[tid].  Keep it correct for every n: the last
 * block may own fewer than blockDim.x elements.  See task.md;
 * `cudalab grade reduction/interleaved` checks it.
 */
__global__ void reduceInterleaved(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    unsigned int first = blockIdx.x * blockDim.x;

    // this block's slice of the input
    int *idata = g_idata + first;

    // how many elements this block really owns (fewer in the last block)
    unsigned int count = min(blockDim.x, n - first);

    // in-place reduction in global memory
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        // convert tid into local array index
        unsigned int index = 2 * stride * tid;

        if (index + stride < count) {
            idata[index] += idata[index + stride];
        }

        // synchronize within threadblock
        __syncthreads();
    }

    // write result for this block to global mem
    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}
