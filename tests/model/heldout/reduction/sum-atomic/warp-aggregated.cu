// Held out of the model's fit (tests/model/heldout/README.md).  Warp-aggregated
// atomics: each warp adds its 32 elements with shuffles first, then its lane 0
// alone adds the warp's sum into the global float (32 times fewer atomics).
__device__ float dev_sum = 0.0f;

__global__ void sumAtomic(const float *pData, float *pPartial, unsigned int n) {
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? pData[i] : 0.0f;

    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    if (threadIdx.x % 32 == 0) atomicAdd(&dev_sum, v);
}
