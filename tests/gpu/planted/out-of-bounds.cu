// Planted for make test-gpu (expected verdict: RUNTIME_ERROR): a store far
// past g_odata, which faults with an illegal address and kills the context.
__global__ void reduceNeighboredLess(int *g_idata, int *g_odata, unsigned int n)
{
    if (threadIdx.x == 0)
        g_odata[blockIdx.x + (1ull << 38)] = g_idata[0] + (int)n;
}
