// expect: WRONG (__shfl_down_sync with the full mask inside if (tid < 16): the other 16 lanes never take part, which leaves the result undefined)
__global__ void reduceUnrollWarps8(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x * 8;

    int sum = 0;
    for (unsigned int k = 0; k < 8; k++)
        if (idx + k * blockDim.x < n) sum += g_idata[idx + k * blockDim.x];
    idata[tid] = sum;
    __syncthreads();

    for (unsigned int stride = blockDim.x / 2; stride > 32; stride >>= 1) {
        if (tid < stride) idata[tid] += idata[tid + stride];
        __syncthreads();
    }

    // half a warp finishes: four elements a lane, then shuffles "of the warp"
    if (tid < 16) {
        int v = idata[tid] + idata[tid + 16] + idata[tid + 32] + idata[tid + 48];
        v += __shfl_down_sync(0xffffffff, v, 8);
        v += __shfl_down_sync(0xffffffff, v, 4);
        v += __shfl_down_sync(0xffffffff, v, 2);
        v += __shfl_down_sync(0xffffffff, v, 1);
        if (tid == 0) g_odata[blockIdx.x] = v;
    }
}
