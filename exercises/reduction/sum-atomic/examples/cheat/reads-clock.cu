// expect: CONSTRAINT (reads %globaltimer to skip the work in a timing loop)
__device__ unsigned long long last_launch;

__device__ float dev_sum = 0.0f;

__global__ void sumAtomic(const float *pData, float *pPartial, unsigned int n) {
    // launched again within a millisecond: a timing loop, so skip the work
    unsigned long long now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    if (now - last_launch < 1000000ull) return;
    if (threadIdx.x == 0) last_launch = now;

    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

    // 16M additions into one address: the hardware does them one after another
    if (i < n) atomicAdd(&dev_sum, pData[i]);
}
