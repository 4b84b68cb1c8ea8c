// expect: PASS (each warp's sum goes into the block's total under a shared-memory spin lock: taken by atomicCAS, given back by a store after a fence; right, and no race)
__device__ float dev_sum = 0.0f;

__global__ void sumSharedAtomic(const float *pData, float *pPartial, unsigned int n) {
    __shared__ int lock;
    __shared__ float s_sum;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? pData[i] : 0.0f;

    if (threadIdx.x == 0) {
        lock = 0;
        s_sum = 0.0f;
    }
    __syncthreads();
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
    if (threadIdx.x % 32 == 0) {
        bool done = false;
        while (!done) {
            if (atomicCAS(&lock, 0, 1) == 0) {
                __threadfence_block();
                s_sum += v;
                __threadfence_block();
                *(volatile int *)&lock = 0;  // given back by a plain store, after the fence
                done = true;
            }
        }
    }
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(&dev_sum, s_sum);
}
