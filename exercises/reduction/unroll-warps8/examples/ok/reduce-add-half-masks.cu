// expect: PASS (__reduce_add_sync with a half mask in each half of the last warp: each half sums its own 16 lanes)
__global__ void reduceUnrollWarps8(int *g_idata, int *g_odata, unsigned int n) {
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
        for (unsigned int k = 0; k < 8; k++)
            if (idx + k * blockDim.x < n) sum += g_idata[idx + k * blockDim.x];
    }
    idata[tid] = sum;
    __syncthreads();

    for (unsigned int stride = blockDim.x / 2; stride > 32; stride >>= 1) {
        if (tid < stride) idata[tid] += idata[tid + stride];
        __syncthreads();
    }

    if (tid < 32) {
        unsigned int half = tid < 16 ? 0x0000ffffu : 0xffff0000u;
        int v = __reduce_add_sync(half, idata[tid] + idata[tid + 32]);
        int other = __shfl_sync(0xffffffff, v, 16);
        if (tid == 0) g_odata[blockIdx.x] = v + other;
    }
}
