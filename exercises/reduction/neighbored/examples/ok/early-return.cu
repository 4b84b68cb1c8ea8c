// expect: PASS (the notes' early return kept, the partner bounded: a thread that returns has exited, and __syncthreads() waits only for the threads that have not)
__global__ void reduceNeighbored(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x;

    // how many elements this block really owns (fewer in the last block)
    unsigned int count = min(blockDim.x, n - blockIdx.x * blockDim.x);

    // a thread past n leaves for good: the barriers below no longer wait for it
    if (idx >= n) return;

    for (int stride = 1; stride < blockDim.x; stride *= 2) {
        if ((tid % (2 * stride)) == 0 && tid + stride < count) {
            idata[tid] += idata[tid + stride];
        }
        __syncthreads();
    }

    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}
