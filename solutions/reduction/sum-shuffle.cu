/*
 * Reference for reduction/sum-shuffle: note 001's warp shuffle.  The last
 * warp adds through registers instead of shared memory: __shfl_xor_sync
 * hands each lane the value of the lane whose number differs in one bit, so
 * after the masks 16, 8, 4, 2, 1 every lane holds the warp's sum (a
 * butterfly).  No shared-memory round trip, no __syncwarp: the _sync in the
 * name makes the 32 lanes meet.
 *
 * Contract (the reduce-float driver, unroll = 2): blockDim.x = 1024, grid =
 * ceil(n / 2048); block b owns [b * 2048, (b + 1) * 2048) below n.  The lab
 * zeroes dev_sum before every launch.
 */
__device__ float dev_sum = 0.0f;

__device__ float warpSum(float v) {
    for (int laneMask = 16; laneMask > 0; laneMask >>= 1) {
        v += __shfl_xor_sync(0xffffffff, v, laneMask);
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
