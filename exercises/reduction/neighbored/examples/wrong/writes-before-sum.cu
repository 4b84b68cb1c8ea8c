// expect: WRONG (thread 0 stores its block's result before the tree has summed anything)
__global__ void reduceNeighbored(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    unsigned int first = blockIdx.x * blockDim.x;
    int *idata = g_idata + first;
    unsigned int count = min(blockDim.x, n - first);

    if (tid == 0) g_odata[blockIdx.x] = idata[0];
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        if ((tid % (2 * stride)) == 0 && tid + stride < count) {
            idata[tid] += idata[tid + stride];
        }
        __syncthreads();
    }
}
