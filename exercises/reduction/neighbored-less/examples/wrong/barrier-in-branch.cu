// expect: WRONG (__syncthreads() inside the branch only the working threads take: undefined behaviour that an H100 happens to sum right; the simulator's barrier check names it)
__global__ void reduceNeighboredLess(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    unsigned int first = blockIdx.x * blockDim.x;
    int *idata = g_idata + first;
    unsigned int count = min(blockDim.x, n - first);

    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        unsigned int index = 2 * stride * tid;

        if (index + stride < count) {
            idata[index] += idata[index + stride];
            // only the threads that added wait here: the others run on to the next round
            __syncthreads();
        }
    }

    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}
