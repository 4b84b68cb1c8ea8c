// Held out of the model's fit (tests/model/heldout/README.md).  The last-warp
// kernel with 8-byte loads: thread t reads the adjacent pair (2t, 2t + 1) of
// the block's 2048 elements as one float2; the last warp's rounds meet at
// __syncwarp.
__device__ float dev_sum = 0.0f;

__global__ void sumLastWarp(const float *pData, float *pPartial, unsigned int n) {
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
        float v = s_data[tx];
        for (unsigned int stride = 32; stride > 0; stride >>= 1) {
            v += s_data[tx + stride];
            __syncwarp();
            s_data[tx] = v;
            __syncwarp();
        }
        if (tx == 0) atomicAdd(&dev_sum, v);
    }
}
