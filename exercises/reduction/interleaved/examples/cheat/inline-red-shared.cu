// expect: CONSTRAINT (an atomic written as inline PTX: red.shared.add is an atomic however it is spelled)
__global__ void reduceInterleaved(int *g_idata, int *g_odata, unsigned int n) {
    __shared__ int sum;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;

    if (threadIdx.x == 0) sum = 0;
    __syncthreads();
    // no tree: every element goes into the block's sum, in hardware
    if (idx < n) {
        unsigned int at = (unsigned int)__cvta_generic_to_shared(&sum);
        asm volatile("red.shared.add.s32 [%0], %1;" ::"r"(at), "r"(g_idata[idx]) : "memory");
    }
    __syncthreads();
    if (threadIdx.x == 0) g_odata[blockIdx.x] = sum;
}
