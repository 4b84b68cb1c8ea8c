// expect: CONSTRAINT (one int per load: the 16-byte loads the step asks for are missing)
#define MAX_WARPS 32

__global__ void reduceSinglePass(int *g_idata, int *g_odata, unsigned int n) {
    __shared__ int warp_sums[MAX_WARPS];
    const unsigned int tid = threadIdx.x;
    const size_t threads = (size_t)gridDim.x * blockDim.x;
    const size_t first = (size_t)blockIdx.x * blockDim.x + tid;
    int s0 = 0, s1 = 0;
    size_t i = first;

    // one element per load
    for (; i < n; i += threads) s0 += g_idata[i];
    int v = s0 + s1;

    // each warp's 32 sums, by shuffles
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffff, v, offset);
    if (tid % 32 == 0) warp_sums[tid / 32] = v;
    __syncthreads();

    // the first warp adds the warps' sums; one atomic per block
    if (tid < 32) {
        v = tid < blockDim.x / 32 ? warp_sums[tid] : 0;
        for (int offset = 16; offset > 0; offset >>= 1)
            v += __shfl_down_sync(0xffffffff, v, offset);
        if (tid == 0) atomicAdd(g_odata, v);
    }
}
