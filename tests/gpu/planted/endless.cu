// Planted for make test-gpu (expected verdict: TIMEOUT): a loop the compiler
// cannot remove, so the kernel never ends and the lab must kill the driver.
__global__ void reduceNeighboredLess(int *g_idata, int *g_odata, unsigned int n)
{
    volatile int *p = g_idata;
    while (p[0] != -12345 || n == 0)
        ;
    g_odata[blockIdx.x] = 0;
}
