// expect: WRONG (the loop stops one round early: the last pair of each block is never added)
__global__ void reduceNeighboredLess(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    unsigned int first = blockIdx.x * blockDim.x;
    int *idata = g_idata + first;
    unsigned int count = min(blockDim.x, n - first);

    for (unsigned int stride = 1; stride < blockDim.x / 2; stride *= 2) {
        if ((tid % (2 * stride)) == 0 && tid + stride < count) {
            idata[tid] += idata[tid + stride];
        }
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}
