// Held out of the model's fit (tests/model/heldout/README.md).  The issue's
// shared-atomics sum that a GPU runs fast: each warp adds its 32 elements
// with shuffles, then only its lane 0 adds into the shared float (one shared
// atomic per warp, not per thread); thread 0 adds the block's total into the
// global float.
__device__ float dev_sum = 0.0f;

__global__ void sumSharedAtomic(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float s_sum;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? pData[i] : 0.0f;

    if (threadIdx.x == 0) s_sum = 0.0f;
    __syncthreads();
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    if (threadIdx.x % 32 == 0) atomicAdd_block(&s_sum, v);
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(&dev_sum, s_sum);
}
