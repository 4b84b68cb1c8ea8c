// Held out of the model's fit (tests/model/heldout/README.md).  The last warp
// by shuffles written out: five __shfl_down_sync, lane 0 ends with the sum.
__device__ float dev_sum = 0.0f;

__global__ void sumShuffle(const float *pData, float *pPartial, unsigned int n) {
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
        float v = s_data[tx] + s_data[tx + 32];
        v += __shfl_down_sync(0xffffffffu, v, 16);
        v += __shfl_down_sync(0xffffffffu, v, 8);
        v += __shfl_down_sync(0xffffffffu, v, 4);
        v += __shfl_down_sync(0xffffffffu, v, 2);
        v += __shfl_down_sync(0xffffffffu, v, 1);
        if (tx == 0) atomicAdd(&dev_sum, v);
    }
}
