// Held out of the model's fit (tests/model/heldout/README.md).  The two-level
// kernel with 8-byte loads (the adjacent pair 2t, 2t + 1 as one float2), the
// tree in shared memory down to 64 values, the last warp by shuffles.
__global__ void sumTwoLevel(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float s_data[1024];
    unsigned int tx = threadIdx.x;
    unsigned int first = blockIdx.x * blockDim.x * 2;
    unsigned int i = first + 2 * tx;

    if (first + 2 * blockDim.x <= n) {
        float2 p = reinterpret_cast<const float2 *>(pData + first)[tx];
        s_data[tx] = p.x + p.y;
    } else {
        s_data[tx] = (i < n ? pData[i] : 0.0f) + (i + 1 < n ? pData[i + 1] : 0.0f);
    }
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 32; stride >>= 1) {
        if (tx < stride)
            s_data[tx] += s_data[tx + stride];
        __syncthreads();
    }
    if (tx < 32) {
        float v = s_data[tx] + s_data[tx + 32];
        for (int offset = 16; offset > 0; offset >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, offset);
        if (tx == 0) pPartial[blockIdx.x] = v;
    }
}
