// Held out of the model's fit (tests/model/heldout/README.md).  The single
// pass with one int4 per thread per step and one accumulator (one load in
// flight per thread), warp shuffles, one atomic per block.
#define MAX_WARPS 32

__global__ void reduceSinglePass(int *g_idata, int *g_odata, unsigned int n) {
    __shared__ int warp_sums[MAX_WARPS];
    const unsigned int tid = threadIdx.x;
    const size_t threads = (size_t)gridDim.x * blockDim.x;
    const size_t first = (size_t)blockIdx.x * blockDim.x + tid;
    const size_t quads = n / 4;
    const int4 *in4 = reinterpret_cast<const int4 *>(g_idata);
    int v = 0;

    for (size_t i = first; i < quads; i += threads) {
        int4 a = in4[i];
        v += (a.x + a.y) + (a.z + a.w);
    }
    if (first < n - quads * 4) v += g_idata[quads * 4 + first];
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    if (tid % 32 == 0) warp_sums[tid / 32] = v;
    __syncthreads();
    if (tid < 32) {
        v = tid < blockDim.x / 32 ? warp_sums[tid] : 0;
        for (int offset = 16; offset > 0; offset >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, offset);
        if (tid == 0) atomicAdd(g_odata, v);
    }
}
