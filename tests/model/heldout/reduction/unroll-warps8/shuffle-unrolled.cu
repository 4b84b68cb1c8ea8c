// Held out of the model's fit (tests/model/heldout/README.md).  The issue's
// unrolled last warp with shuffles: the block-wide rounds stop at 64 elements,
// then the first warp finishes in registers with five __shfl_xor_sync written
// out (a butterfly: every lane ends with the sum).
__global__ void reduceUnrollWarps8(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x * 8;
    int sum = 0;

#pragma unroll
    for (unsigned int k = 0; k < 8; k++)
        if (idx + k * blockDim.x < n) sum += g_idata[idx + k * blockDim.x];
    idata[tid] = sum;
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 32; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid < 32) {
        int v = idata[tid] + idata[tid + 32];
        v += __shfl_xor_sync(0xffffffffu, v, 16);
        v += __shfl_xor_sync(0xffffffffu, v, 8);
        v += __shfl_xor_sync(0xffffffffu, v, 4);
        v += __shfl_xor_sync(0xffffffffu, v, 2);
        v += __shfl_xor_sync(0xffffffffu, v, 1);
        if (tid == 0) g_odata[blockIdx.x] = v;
    }
}
