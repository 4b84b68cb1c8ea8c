// expect: CONSTRAINT (__reduce_add_sync sums each warp in hardware: a warp collective, which this step forbids)
__global__ void reduceInterleaved(int *g_idata, int *g_odata, unsigned int n) {
    __shared__ int warp_sums[32];
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;

    int v = idx < n ? g_idata[idx] : 0;
    // not a shuffle, but the same exchange between lanes
    v = __reduce_add_sync(0xffffffff, v);
    if (tid % 32 == 0) warp_sums[tid / 32] = v;
    __syncthreads();
    if (tid == 0) {
        int s = 0;
        for (unsigned int w = 0; w < blockDim.x / 32; w++) s += warp_sums[w];
        g_odata[blockIdx.x] = s;
    }
}
