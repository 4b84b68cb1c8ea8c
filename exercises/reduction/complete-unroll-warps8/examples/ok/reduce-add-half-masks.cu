// expect: PASS (the last warp's two halves each __reduce_add_sync with their own 16-lane mask)
__global__ void reduceCompleteUnrollWarps8(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x * 8;

    int sum = 0;
    if (idx + 7 * blockDim.x < n) {
        sum = g_idata[idx] + g_idata[idx + blockDim.x] + g_idata[idx + 2 * blockDim.x] +
              g_idata[idx + 3 * blockDim.x] + g_idata[idx + 4 * blockDim.x] +
              g_idata[idx + 5 * blockDim.x] + g_idata[idx + 6 * blockDim.x] +
              g_idata[idx + 7 * blockDim.x];
    } else {
#pragma unroll
        for (unsigned int k = 0; k < 8; k++)
            if (idx + k * blockDim.x < n) sum += g_idata[idx + k * blockDim.x];
    }
    idata[tid] = sum;
    __syncthreads();

    if (blockDim.x >= 1024 && tid < 512) idata[tid] += idata[tid + 512];
    __syncthreads();
    if (blockDim.x >= 512 && tid < 256) idata[tid] += idata[tid + 256];
    __syncthreads();
    if (blockDim.x >= 256 && tid < 128) idata[tid] += idata[tid + 128];
    __syncthreads();
    if (blockDim.x >= 128 && tid < 64) idata[tid] += idata[tid + 64];
    __syncthreads();

    if (tid < 32) {
        unsigned int half = tid < 16 ? 0x0000ffffu : 0xffff0000u;
        int v = __reduce_add_sync(half, idata[tid] + idata[tid + 32]);
        int other = __shfl_sync(0xffffffff, v, 16);
        if (tid == 0) g_odata[blockIdx.x] = v + other;
    }
}
