// Held out of the model's fit (tests/model/heldout/README.md).  Shared atomics
// without contention inside a warp: lane l adds into slot l of 32 shared
// floats (32 different addresses per atomic instruction; the block's warps
// share the slots), then the first warp adds the 32 slots and thread 0 adds
// the block's total into the global float.
__device__ float dev_sum = 0.0f;

__global__ void sumSharedAtomic(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float slots[32];
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int lane = threadIdx.x % 32;

    if (threadIdx.x < 32) slots[threadIdx.x] = 0.0f;
    __syncthreads();
    if (i < n) atomicAdd_block(&slots[lane], pData[i]);
    __syncthreads();
    if (threadIdx.x < 32) {
        float v = slots[lane];
        for (int offset = 16; offset > 0; offset >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, offset);
        if (lane == 0) atomicAdd(&dev_sum, v);
    }
}
