/*
 * Reference for reduction/sum-reversed: note 001's reversed reduction
 * (sequential addressing; note 002's "bank conflicts removed").  The stride
 * starts at half the block and halves every round, and the threads that work
 * are tx < stride: always the first ones, so whole warps finish early, and
 * the 32 threads of a warp read 32 consecutive floats (32 different banks).
 *
 * Contract (the reduce-float driver): blockDim.x = 1024 (a power of two),
 * grid = ceil(n / blockDim.x); block b owns [b * 1024, (b + 1) * 1024) below
 * n.  Elements past n count as 0.  The lab zeroes dev_sum before every launch.
 */
__device__ float dev_sum = 0.0f;

__global__ void sumReversed(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float s_data[1024];
    unsigned int tx = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + tx;

    s_data[tx] = (i < n) ? pData[i] : 0.0f;
    __syncthreads();

    // >>= 1: halve the stride; the working threads stay consecutive
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tx < stride) {
            s_data[tx] += s_data[tx + stride];
        }
        __syncthreads();
    }

    if (tx == 0) atomicAdd(&dev_sum, s_data[0]);
}
