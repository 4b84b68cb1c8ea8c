// expect: COMPILE_ERROR (a statement without its semicolon)
__global__ void reduceNeighboredLess(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x
    if (tid == 0) g_odata[blockIdx.x] = g_idata[blockIdx.x * blockDim.x];
}
