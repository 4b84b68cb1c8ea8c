// expect: PASS (the reference with its pair index written with a shift)
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
        unsigned int index = (stride * tid) << 1;

        if (index + stride < count) {
            idata[index] += idata[index + stride];
        }

        // synchronize within threadblock
        __syncthreads();
    }

    // write result for this block to global mem
    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}
