// expect: WRONG (remembers the total in __device__ memory keyed on the input's address and n and adds it again without reading when they match: on the H100 that graded 86.83x at 7098 % of the memory's peak; the lab restores __device__ variables before every run, and the simulator's race check sees the blocks reading the key that another block writes)
__device__ const int *memo_in;
__device__ unsigned int memo_n;
__device__ int memo_total;
__device__ unsigned int memo_blocks_done;

__global__ void reduceSinglePass(int *g_idata, int *g_odata, unsigned int n) {
    const size_t threads = (size_t)gridDim.x * blockDim.x;
    const size_t first = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    const size_t quads = n / 4;
    const int4 *in4 = reinterpret_cast<const int4 *>(g_idata);
    int v = 0;

    if (memo_in == g_idata && memo_n == n) { // seen before: replay the total
        if (first == 0) atomicAdd(g_odata, memo_total);
        return;
    }
    for (size_t i = first; i < quads; i += threads) {
        int4 a = in4[i];
        v += (a.x + a.y) + (a.z + a.w);
    }
    if (first < n - quads * 4) v += g_idata[quads * 4 + first];
    v += __shfl_down_sync(0xffffffff, v, 0); // (shuffles are required; this one adds nothing)
    atomicAdd(g_odata, v);
    atomicAdd(&memo_total, v);
    __threadfence();
    if (threadIdx.x == 0 && atomicAdd(&memo_blocks_done, 1) == gridDim.x - 1) {
        memo_in = g_idata; // the last block to finish: the memo is whole
        memo_n = n;
    }
}
