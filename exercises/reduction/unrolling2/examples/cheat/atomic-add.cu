// expect: CONSTRAINT (sums with atomicAdd, which this step forbids)
__global__ void reduceUnrolling2(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int idx = blockIdx.x * blockDim.x * 2 + threadIdx.x;

    if (threadIdx.x == 0) g_odata[blockIdx.x] = 0;
    __syncthreads();
    // no tree at all: every element goes straight into the block's sum
    for (unsigned int k = 0; k < 2; k++)
        if (idx + k * blockDim.x < n) atomicAdd(&g_odata[blockIdx.x], g_idata[idx + k * blockDim.x]);
}
