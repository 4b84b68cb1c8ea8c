// Planted for make test-gpu (expected verdict: WRONG): reduceNeighboredLess
// without the barrier between rounds, so a round reads partial sums that
// another warp has not written yet.
__global__ void reduceNeighboredLess(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int base = blockIdx.x * blockDim.x;
    int *idata = g_idata + base;
    unsigned int count = min(blockDim.x, n - base);

    for (int stride = 1; stride < blockDim.x; stride *= 2) {
        int index = 2 * stride * tid;
        if (index + stride < count)
            idata[index] += idata[index + stride];
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}
