// expect: WRONG (never reads its input: writes a sum it guesses)
__global__ void reduceCompleteUnrollWarps8(int *g_idata, int *g_odata, unsigned int n) {
    // a __syncwarp to meet the rule, and the block's sum guessed: as if every element were 1
    unsigned int first = blockIdx.x * blockDim.x * 8;
    unsigned int count = min(blockDim.x * 8, n - first);

    __syncwarp();
    if (threadIdx.x == 0) g_odata[blockIdx.x] = (int)count;
}
