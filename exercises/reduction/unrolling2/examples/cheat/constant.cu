// expect: WRONG (returns a constant and never reads its input)
__global__ void reduceUnrolling2(int *g_idata, int *g_odata, unsigned int n) {
    // every block's sum is "0": the input is never read
    if (threadIdx.x == 0) g_odata[blockIdx.x] = 0;
}
