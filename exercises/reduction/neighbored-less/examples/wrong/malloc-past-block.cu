// expect: WRONG (each thread's malloc(sizeof(int)) gets one int, and the pair it writes is one past it)
__global__ void reduceNeighboredLess(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x;

    if (idx >= n) idata[tid] = 0;
    // a scratch pair for the thread's own element, from the device heap: one int asked for
    int *pair = (int *)malloc(sizeof(int));
    if (pair) {
        pair[0] = idata[tid];
        pair[1] = 0;
        idata[tid] = pair[0] + pair[1];
        free(pair);
    }
    __syncthreads();

    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        int index = 2 * stride * tid;
        if (index < blockDim.x) idata[index] += idata[index + stride];
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}
