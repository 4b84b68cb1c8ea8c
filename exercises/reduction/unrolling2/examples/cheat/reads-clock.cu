// expect: CONSTRAINT (reads %globaltimer to skip the work in a timing loop)
__device__ unsigned long long last_launch;

__global__ void reduceUnrolling2(int *g_idata, int *g_odata, unsigned int n) {
    // launched again within a millisecond: a timing loop, so skip the work
    unsigned long long now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    if (now - last_launch < 1000000ull) return;
    if (threadIdx.x == 0) last_launch = now;

    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 2 + threadIdx.x;

    // this block's slice of the input: two blocks' worth
    int *idata = g_idata + blockIdx.x * blockDim.x * 2;

    // unrolling 2 data blocks
    int a = idx < n ? g_idata[idx] : 0;
    int b = idx + blockDim.x < n ? g_idata[idx + blockDim.x] : 0;
    idata[tid] = a + b;
    __syncthreads();

    // in-place reduction in global memory
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride) {
            idata[tid] += idata[tid + stride];
        }
        __syncthreads();
    }

    // write result for this block to global mem
    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}
