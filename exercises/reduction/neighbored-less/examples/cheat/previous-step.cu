// expect: SLOW (the previous step's kernel under this step's name: right, but no faster)
/*
 * Reference for reduction/neighbored: the notes' reduceNeighbored, made
 * correct for any n >= 1.
 *
 * Contract (the reduce-int driver): grid = ceil(n / blockDim.x), blockDim.x a
 * power of two.  Block b owns the elements [b * blockDim.x, b * blockDim.x +
 * count), count = min(blockDim.x, n - b * blockDim.x) >= 1; it reduces them in
 * place with neighbored pairs and writes their sum to g_odata[b].
 *
 * Differences from the notes' form:
 *  - no early return: every thread of the block reaches every __syncthreads;
 *  - a thread adds its partner only when the partner exists
 *    (tid + stride < count).  A missing partner heads a subtree that lies
 *    entirely at or past count, so skipping it is adding zero; and since
 *    tid < tid + stride < count, nothing at or past count is read or written.
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
