/*
 * Reference for reduction/sum-last-warp: note 001's last warp (note 002's
 * "last warp unrolled").  The block-wide rounds stop when 64 partial sums are
 * left; warp 0 then does the last six rounds alone, unrolled, with no
 * __syncthreads and no `if (tx < stride)`.
 *
 * The notes' warpSum relies on the 32 threads of a warp running in lockstep
 * (and on volatile to keep the values in shared memory).  Since Volta the
 * threads of a warp are scheduled independently, and lockstep is not
 * promised: each round here reads, waits for the whole warp (__syncwarp),
 * then writes and waits again, which is correct by the CUDA memory model.
 *
 * Contract (the reduce-float driver, unroll = 2): blockDim.x = 1024, grid =
 * ceil(n / 2048); block b owns [b * 2048, (b + 1) * 2048) below n.  The lab
 * zeroes dev_sum before every launch.
 */
__device__ float dev_sum = 0.0f;

// the last six rounds, for the first warp: s[tx] += s[tx + 32], ..., s[tx] += s[tx + 1]
__device__ void warpSum(volatile float *s_data, unsigned int tx) {
    float v = s_data[tx];
    for (unsigned int stride = 32; stride > 0; stride >>= 1) {
        v += s_data[tx + stride];
        __syncwarp();  // every lane has read before any lane writes
        s_data[tx] = v;
        __syncwarp();  // every lane has written before the next read
    }
}

__global__ void sumLastWarp(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float s_data[1024];
    unsigned int tx = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + tx;

    float a = (i < n) ? pData[i] : 0.0f;
    float b = (i + blockDim.x < n) ? pData[i + blockDim.x] : 0.0f;
    s_data[tx] = a + b;
    __syncthreads();

    // block-wide rounds while more than one warp has work
    for (unsigned int stride = blockDim.x / 2; stride > 32; stride >>= 1) {
        if (tx < stride) {
            s_data[tx] += s_data[tx + stride];
        }
        __syncthreads();
    }

    if (tx < 32) warpSum(s_data, tx);

    if (tx == 0) atomicAdd(&dev_sum, s_data[0]);
}
