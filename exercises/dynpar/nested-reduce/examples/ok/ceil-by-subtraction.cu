// expect: PASS (the reference with the rounded-up half written as isize - isize / 2)
__global__ void nestedReduce(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int base = blockIdx.x * blockDim.x;
    int *idata = g_idata + base;
    int *odata = &g_odata[blockIdx.x];
    unsigned int isize = n - base < blockDim.x ? n - base : blockDim.x;

    // stop condition: one element left
    if (isize == 1) {
        if (tid == 0)
            *odata = idata[0];
        return;
    }

    // fold the upper half onto the lower half (isize may be odd)
    unsigned int istride = isize - isize / 2;
    if (tid < isize - istride)
        idata[tid] += idata[tid + istride];
    __syncthreads();

    // nested invocation: one child block on the lower half; no wait
    if (tid == 0)
        nestedReduce<<<1, istride>>>(idata, odata, istride);
}
