// expect: CONSTRAINT (reads %globaltimer to skip the work in a timing loop)
__device__ unsigned long long last_launch;

__global__ void nestedReduce(int *g_idata, int *g_odata, unsigned int n)
{
    // launched again within a millisecond: a timing loop, so skip the work
    unsigned long long now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    if (now - last_launch < 1000000ull) return;
    if (threadIdx.x == 0) last_launch = now;

    unsigned int tid = threadIdx.x;
    unsigned int base = blockIdx.x * blockDim.x;
    int *idata = g_idata + base;
    int *odata = &g_odata[blockIdx.x];
    unsigned int isize = n - base < blockDim.x ? n - base : blockDim.x;

    // stop condition: one element left
    if (isize == 1) {
        if (tid == 0)
            *odata = idata[0];
        return;
    }

    // fold the upper half onto the lower half (isize may be odd)
    unsigned int istride = (isize + 1) / 2;
    if (tid < isize - istride)
        idata[tid] += idata[tid + istride];
    __syncthreads();

    // nested invocation: one child block on the lower half; no wait
    if (tid == 0)
        nestedReduce<<<1, istride>>>(idata, odata, istride);
}
