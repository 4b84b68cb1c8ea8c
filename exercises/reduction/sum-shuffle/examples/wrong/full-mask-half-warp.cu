// expect: WRONG (a full-mask __shfl_xor_sync that only 16 lanes execute: undefined behaviour that a GPU sums right; the simulator's warp-sync check names it)
__device__ float dev_sum = 0.0f;

__global__ void sumShuffle(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float s_data[1024];
    unsigned int tx = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + tx;

    float a = (i < n) ? pData[i] : 0.0f;
    float b = (i + blockDim.x < n) ? pData[i + blockDim.x] : 0.0f;
    s_data[tx] = a + b;
    __syncthreads();

    // the tree goes down to 32 partial sums
    for (unsigned int stride = blockDim.x / 2; stride > 16; stride >>= 1) {
        if (tx < stride) s_data[tx] += s_data[tx + stride];
        __syncthreads();
    }

    if (tx < 16) {
        // 16 lanes, 32 sums: but the mask still names all 32 lanes
        float v = s_data[tx] + s_data[tx + 16];
        for (int laneMask = 8; laneMask > 0; laneMask >>= 1)
            v += __shfl_xor_sync(0xffffffff, v, laneMask);
        if (tx == 0) atomicAdd(&dev_sum, v);
    }
}
