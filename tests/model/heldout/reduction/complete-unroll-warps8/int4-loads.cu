// Held out of the model's fit (tests/model/heldout/README.md).  The complete
// unroll with 16-byte loads: two int4 per thread of the block's 4096 elements
// (element by element, unrolled, in a last block that passes n), the rounds
// written out in global memory, the last warp by shuffles.
__global__ void reduceCompleteUnrollWarps8(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    unsigned int first = blockIdx.x * blockDim.x * 8;
    int *idata = g_idata + first;
    int sum = 0;

    if (first + 8 * blockDim.x <= n) {
        const int4 *q = reinterpret_cast<const int4 *>(idata);
        int4 a = q[tid];
        int4 b = q[tid + blockDim.x];
        sum = (a.x + a.y) + (a.z + a.w) + (b.x + b.y) + (b.z + b.w);
    } else {
#pragma unroll
        for (unsigned int k = 0; k < 4; k++) {
            if (first + 4 * tid + k < n) sum += idata[4 * tid + k];
            if (first + 4 * (tid + blockDim.x) + k < n) sum += idata[4 * (tid + blockDim.x) + k];
        }
    }
    __syncthreads(); // every element is read before any sum overwrites it
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
        int v = idata[tid] + idata[tid + 32];
        v += __shfl_down_sync(0xffffffffu, v, 16);
        v += __shfl_down_sync(0xffffffffu, v, 8);
        v += __shfl_down_sync(0xffffffffu, v, 4);
        v += __shfl_down_sync(0xffffffffu, v, 2);
        v += __shfl_down_sync(0xffffffffu, v, 1);
        if (tid == 0) g_odata[blockIdx.x] = v;
    }
}
