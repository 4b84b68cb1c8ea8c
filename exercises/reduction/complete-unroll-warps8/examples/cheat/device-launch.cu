// expect: COMPILE_ERROR (launches a kernel from the device: the step is built without -rdc)
// one thread adds the whole slice; launched from the device, it looks like no work
__global__ void sumSlice(int *idata, int *out, unsigned int count) {
    int s = 0;
    for (unsigned int i = 0; i < count; i++) s += idata[i];
    *out = s;
}

__global__ void reduceCompleteUnrollWarps8(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int first = blockIdx.x * blockDim.x * 8;
    unsigned int count = min(blockDim.x * 8, n - first);

    if (threadIdx.x == 0) sumSlice<<<1, 1>>>(g_idata + first, &g_odata[blockIdx.x], count);
}
