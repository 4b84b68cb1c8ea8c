// Held out of the model's fit (tests/model/heldout/README.md).  The last warp
// unrolled by hand: the six rounds written out, each a read, __syncwarp, a
// write and __syncwarp again (correct without lockstep).
__device__ float dev_sum = 0.0f;

#define ROUND(s)                  \
    v += w[tx + (s)];             \
    __syncwarp();                 \
    w[tx] = v;                    \
    __syncwarp();

__global__ void sumLastWarp(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float s_data[1024];
    unsigned int tx = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + tx;

    float a = (i < n) ? pData[i] : 0.0f;
    float b = (i + blockDim.x < n) ? pData[i + blockDim.x] : 0.0f;
    s_data[tx] = a + b;
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 32; stride >>= 1) {
        if (tx < stride)
            s_data[tx] += s_data[tx + stride];
        __syncthreads();
    }
    if (tx < 32) {
        volatile float *w = s_data;
        float v = w[tx];
        ROUND(32) ROUND(16) ROUND(8) ROUND(4) ROUND(2) ROUND(1)
        if (tx == 0) atomicAdd(&dev_sum, v);
    }
}
