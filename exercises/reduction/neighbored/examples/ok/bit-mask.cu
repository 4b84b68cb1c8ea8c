// expect: PASS (the reference with tid % (2 * stride) written as a mask)
__global__ void reduceNeighbored(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    unsigned int first = blockIdx.x * blockDim.x;

    // this block's slice of the input
    int *idata = g_idata + first;

    // how many elements this block really owns (fewer in the last block)
    unsigned int count = min(blockDim.x, n - first);

    // in-place reduction in global memory, neighbored pairs
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        if ((tid & (2 * stride - 1)) == 0 && tid + stride < count) {
            idata[tid] += idata[tid + stride];
        }

        // every thread of the block, working or not, waits here
        __syncthreads();
    }

    // write result for this block to global mem
    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}
