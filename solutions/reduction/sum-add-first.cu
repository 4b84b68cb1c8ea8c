/*
 * Reference for reduction/sum-add-first: note 001's add first (note 002's
 * "idle threads removed").  Each thread loads two elements, one block-width
 * apart, and adds them before they go to shared memory: half the threads and
 * half the blocks of the reversed kernel, and no round in which half of the
 * threads only copy.
 *
 * Contract (the reduce-float driver, unroll = 2): blockDim.x = 1024, grid =
 * ceil(n / 2048); block b owns [b * 2048, (b + 1) * 2048) below n.  Elements
 * past n count as 0.  The lab zeroes dev_sum before every launch.
 */
__device__ float dev_sum = 0.0f;

__global__ void sumAddFirst(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float s_data[1024];
    unsigned int tx = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + tx;

    // add first: two loads per thread, one addition, one store to shared memory
    float a = (i < n) ? pData[i] : 0.0f;
    float b = (i + blockDim.x < n) ? pData[i + blockDim.x] : 0.0f;
    s_data[tx] = a + b;
    __syncthreads();

    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tx < stride) {
            s_data[tx] += s_data[tx + stride];
        }
        __syncthreads();
    }

    if (tx == 0) atomicAdd(&dev_sum, s_data[0]);
}
