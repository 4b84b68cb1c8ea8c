// Held out of the model's fit (tests/model/heldout/README.md).  Sequential
// addressing over the lab's fixed 1024-thread block: the strides are
// constants (512 .. 1), so the compiler unrolls the ten rounds.
#define BLOCK 1024
__device__ float dev_sum = 0.0f;

__global__ void sumReversed(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float s_data[BLOCK];
    unsigned int tx = threadIdx.x;
    unsigned int i = blockIdx.x * BLOCK + tx;

    s_data[tx] = (i < n) ? pData[i] : 0.0f;
    __syncthreads();
#pragma unroll
    for (unsigned int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (tx < stride)
            s_data[tx] += s_data[tx + stride];
        __syncthreads();
    }
    if (tx == 0) atomicAdd(&dev_sum, s_data[0]);
}
