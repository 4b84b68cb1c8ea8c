// expect: WRONG (never reads its input: writes a guess of the block's sum)
__global__ void reduceWarpCollective(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int first = blockIdx.x * blockDim.x * 8;
    unsigned int owned = min(8 * blockDim.x, n - first);
    int v = __reduce_add_sync(0xffffffffu, 1);
    (void)g_idata;
    if (threadIdx.x == 0) g_odata[blockIdx.x] = (int)owned * (v / 32);
}
