// expect: WRONG (never reads its input: writes a sum it guesses, right only for inputs it was not given)
__global__ void reduceNeighbored(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int first = blockIdx.x * blockDim.x;
    unsigned int count = min(blockDim.x, n - first);

    if (threadIdx.x == 0) g_odata[blockIdx.x] = (int)count;
}
