// Held out of the model's fit (tests/model/heldout/README.md).  The single
// pass with four int4 loads in flight per thread (four accumulators, the
// strided loop unrolled by hand), warp shuffles, one atomic per warp.
__global__ void reduceSinglePass(int *g_idata, int *g_odata, unsigned int n) {
    const size_t threads = (size_t)gridDim.x * blockDim.x;
    const size_t first = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    const size_t quads = n / 4;
    const int4 *in4 = reinterpret_cast<const int4 *>(g_idata);
    int s[4] = {0, 0, 0, 0};
    size_t i = first;

    for (; i + 3 * threads < quads; i += 4 * threads) {
        int4 q[4];
#pragma unroll
        for (int k = 0; k < 4; k++)
            q[k] = in4[i + k * threads];
#pragma unroll
        for (int k = 0; k < 4; k++)
            s[k] += (q[k].x + q[k].y) + (q[k].z + q[k].w);
    }
    for (; i < quads; i += threads) {
        int4 a = in4[i];
        s[0] += (a.x + a.y) + (a.z + a.w);
    }
    if (first < n - quads * 4) s[1] += g_idata[quads * 4 + first];
    int v = (s[0] + s[1]) + (s[2] + s[3]);
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, offset);
    if (threadIdx.x % 32 == 0) atomicAdd(g_odata, v);
}
