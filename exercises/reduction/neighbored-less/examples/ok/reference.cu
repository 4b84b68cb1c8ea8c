// expect: PASS (the reference solution, unchanged)
/*
 * Reference for reduction/neighbored-less: the notes' reduceNeighboredLess
 * (index rearranged), made correct for any n >= 1.
 *
 * Contract (the reduce-int driver): grid = ceil(n / blockDim.x), blockDim.x a
 * power of two.  Block b owns the elements [b * blockDim.x, b * blockDim.x +
 * count), count = min(blockDim.x, n - b * blockDim.x) >= 1; it reduces them in
 * place and writes their sum to g_odata[b].
 *
 * The pairs are those of reduceNeighbored: in the round with distance stride,
 * idata[i] += idata[i + stride] for every i that is a multiple of 2 * stride.
 * Only the thread doing each pair changes: thread tid takes i = 2 * stride *
 * tid, so the working threads are tid 0, 1, 2, ... -- whole warps work and
 * whole warps idle, until fewer than 32 pairs are left.
 *
 * Differences from the notes' form: no early return (every thread reaches
 * every __syncthreads), and the bound is the elements the block owns
 * (index + stride < count) rather than blockDim.x.  With count == blockDim.x
 * the two bounds pick the same threads.
 */
__global__ void reduceNeighboredLess(int *g_idata, int *g_odata, unsigned int n) {
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
