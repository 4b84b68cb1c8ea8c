// expect: COMPILE_ERROR (the template line dropped: the lab's reduceCompleteUnroll<512> names nothing)
#define iBlockSize 512
__global__ void reduceCompleteUnroll(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * iBlockSize * 8 + threadIdx.x;

    // this block's slice of the input: eight blocks' worth
    int *idata = g_idata + blockIdx.x * iBlockSize * 8;

    // unrolling 8 data blocks
    int sum = 0;
    if (idx + 7 * iBlockSize < n) {
        int a1 = g_idata[idx];
        int a2 = g_idata[idx + iBlockSize];
        int a3 = g_idata[idx + 2 * iBlockSize];
        int a4 = g_idata[idx + 3 * iBlockSize];
        int b1 = g_idata[idx + 4 * iBlockSize];
        int b2 = g_idata[idx + 5 * iBlockSize];
        int b3 = g_idata[idx + 6 * iBlockSize];
        int b4 = g_idata[idx + 7 * iBlockSize];
        sum = a1 + a2 + a3 + a4 + b1 + b2 + b3 + b4;
    } else {
#pragma unroll
        for (unsigned int k = 0; k < 8; k++)
            if (idx + k * iBlockSize < n) sum += g_idata[idx + k * iBlockSize];
    }
    idata[tid] = sum;
    __syncthreads();

    // in-place reduction and complete unroll, decided at compile time
    if (iBlockSize >= 1024 && tid < 512) idata[tid] += idata[tid + 512];
    __syncthreads();
    if (iBlockSize >= 512 && tid < 256) idata[tid] += idata[tid + 256];
    __syncthreads();
    if (iBlockSize >= 256 && tid < 128) idata[tid] += idata[tid + 128];
    __syncthreads();
    if (iBlockSize >= 128 && tid < 64) idata[tid] += idata[tid + 64];
    __syncthreads();

    // the last warp: 64 elements into 32 registers, then shuffles
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
