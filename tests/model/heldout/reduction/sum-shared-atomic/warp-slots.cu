// Held out of the model's fit (tests/model/heldout/README.md).  Shared atomics
// into one slot per warp: all 32 lanes of a warp add into their warp's slot
// (one address per instruction, as in the reference), but the block's 32
// warps no longer share one float; then warp 0 adds the slots.
__device__ float dev_sum = 0.0f;

__global__ void sumSharedAtomic(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float slots[32];
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int warp = threadIdx.x / 32;

    if (threadIdx.x < 32) slots[threadIdx.x] = 0.0f;
    __syncthreads();
    if (i < n) atomicAdd_block(&slots[warp], pData[i]);
    __syncthreads();
    if (threadIdx.x < 32) {
        float v = slots[threadIdx.x];
        for (int offset = 16; offset > 0; offset >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, offset);
        if (threadIdx.x == 0) atomicAdd(&dev_sum, v);
    }
}
