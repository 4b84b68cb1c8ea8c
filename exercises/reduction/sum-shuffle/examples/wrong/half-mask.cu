// expect: WRONG (__shfl_xor_sync's mask names 16 lanes while all 32 execute it: undefined behaviour that the H100 sums right; the simulator's warp-sync check names it)
__device__ float dev_sum = 0.0f;

__device__ float warpSum(float v) {
    for (int laneMask = 16; laneMask > 0; laneMask >>= 1) {
        // the mask names lanes 0..15, but all 32 lanes execute this line
        v += __shfl_xor_sync(0x0000ffff, v, laneMask);
    }
    return v;
}

__global__ void sumShuffle(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float s_data[1024];
    unsigned int tx = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + tx;

    float a = (i < n) ? pData[i] : 0.0f;
    float b = (i + blockDim.x < n) ? pData[i + blockDim.x] : 0.0f;
    s_data[tx] = a + b;
    __syncthreads();

    for (unsigned int stride = blockDim.x / 2; stride > 32; stride >>= 1) {
        if (tx < stride) {
            s_data[tx] += s_data[tx + stride];
        }
        __syncthreads();
    }

    if (tx < 32) {
        // 64 partial sums left: each lane takes two, then the butterfly
        float v = warpSum(s_data[tx] + s_data[tx + 32]);
        if (tx == 0) atomicAdd(&dev_sum, v);
    }
}
