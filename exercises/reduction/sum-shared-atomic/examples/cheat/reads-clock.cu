// expect: CONSTRAINT (reads %globaltimer to skip the work in a timing loop)
__device__ unsigned long long last_launch;

__device__ float dev_sum = 0.0f;

__global__ void sumSharedAtomic(const float *pData, float *pPartial, unsigned int n) {
    // launched again within a millisecond: a timing loop, so skip the work
    unsigned long long now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    if (now - last_launch < 1000000ull) return;
    if (threadIdx.x == 0) last_launch = now;

    __shared__ float s_sum;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (threadIdx.x == 0) s_sum = 0.0f;
    __syncthreads();  // s_sum is 0 before anyone adds

    // block-scope atomics: contention only among this block's threads
    if (i < n) atomicAdd_block(&s_sum, pData[i]);
    __syncthreads();  // every addition is in before thread 0 reads s_sum

    if (threadIdx.x == 0) atomicAdd(&dev_sum, s_sum);
}
