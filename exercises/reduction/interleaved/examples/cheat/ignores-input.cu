// expect: WRONG (never reads its input: writes a sum it guesses)
__global__ void reduceInterleaved(int *g_idata, int *g_odata, unsigned int n) {
    // the block's sum, guessed: as if every element were 1
    unsigned int first = blockIdx.x * blockDim.x * 1;
    unsigned int count = min(blockDim.x * 1, n - first);

    if (threadIdx.x == 0) g_odata[blockIdx.x] = (int)count;
}
