// expect: CONSTRAINT (warp shuffles, a later rung, which this step forbids)
__global__ void reduceUnrolling4(int *g_idata, int *g_odata, unsigned int n) {
    __shared__ int warp_sums[32];
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 4 + threadIdx.x;

    int v = 0;
    for (unsigned int k = 0; k < 4; k++)
        if (idx + k * blockDim.x < n) v += g_idata[idx + k * blockDim.x];
    // a later rung's warp shuffles instead of this step's tree
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffff, v, offset);
    if (tid % 32 == 0) warp_sums[tid / 32] = v;
    __syncthreads();
    if (tid == 0) {
        int s = 0;
        for (unsigned int w = 0; w < blockDim.x / 32; w++) s += warp_sums[w];
        g_odata[blockIdx.x] = s;
    }
}
