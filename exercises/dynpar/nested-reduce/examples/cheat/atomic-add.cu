// expect: CONSTRAINT (sums with atomicAdd and launches nothing, which this step forbids)
__global__ void nestedReduce(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;

    if (threadIdx.x == 0) g_odata[blockIdx.x] = 0;
    __syncthreads();
    if (idx < n) atomicAdd(&g_odata[blockIdx.x], g_idata[idx]);
}
