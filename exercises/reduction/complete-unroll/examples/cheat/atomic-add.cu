// expect: CONSTRAINT (sums with atomicAdd, which this step forbids)
template <unsigned int iBlockSize>
__global__ void reduceCompleteUnroll(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int idx = blockIdx.x * iBlockSize * 8 + threadIdx.x;

    if (threadIdx.x == 0) g_odata[blockIdx.x] = 0;
    __syncthreads();
    // no tree at all: every element goes straight into the block's sum
    for (unsigned int k = 0; k < 8; k++)
        if (idx + k * iBlockSize < n) atomicAdd(&g_odata[blockIdx.x], g_idata[idx + k * iBlockSize]);
}
