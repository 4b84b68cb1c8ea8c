// expect: CONSTRAINT (the halving rounds as a recursive device function: a loop by another name, which this step forbids)
// each call halves the stride and calls itself again: the rounds are never written out
__device__ __noinline__ void halve(int *idata, unsigned int tid, unsigned int stride) {
    if (stride <= 32) return;
    if (tid < stride) idata[tid] += idata[tid + stride];
    __syncthreads();
    halve(idata, tid, stride / 2);
}

__global__ void reduceCompleteUnrollWarps8(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x * 8;

    int sum = 0;
#pragma unroll
    for (unsigned int k = 0; k < 8; k++)
        if (idx + k * blockDim.x < n) sum += g_idata[idx + k * blockDim.x];
    idata[tid] = sum;
    __syncthreads();

    halve(idata, tid, blockDim.x / 2);

    if (tid < 32) {
        int v = idata[tid] + idata[tid + 32];
        v += __shfl_down_sync(0xffffffff, v, 16);
        v += __shfl_down_sync(0xffffffff, v, 8);
        v += __shfl_down_sync(0xffffffff, v, 4);
        v += __shfl_down_sync(0xffffffff, v, 2);
        v += __shfl_down_sync(0xffffffff, v, 1);
        if (tid == 0) g_odata[blockIdx.x] = v;
    }
}
