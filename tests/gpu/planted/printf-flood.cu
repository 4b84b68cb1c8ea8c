// Planted for make test-gpu and make test (expected verdict: RUNTIME_ERROR, "your kernel printed
// ... MiB"): the reference of reduction/neighbored-less with a debugging printf left in every
// thread.  At n = 2^24 a GPU prints 2^24 lines a launch (the review of 2026-11-28: TIMEOUT after
// 120 s on the H200, advised to look for an endless loop); the lab stops it at 1 MiB of output,
// the simulator at 1 MiB of printf, and names the flood.
#include <cstdio>

__global__ void reduceNeighboredLess(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int first = blockIdx.x * blockDim.x;
    int *idata = g_idata + first;
    unsigned int count = min(blockDim.x, n - first);

    printf("block %d thread %d: n = %u\n", blockIdx.x, tid, n); // debugging, left in
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        unsigned int index = 2 * stride * tid;
        if (index + stride < count)
            idata[index] += idata[index + stride];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}
