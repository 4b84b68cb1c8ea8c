// nestedReduce for CUDA 12 (CDP2): the same chain of child grids, without
// cudaDeviceSynchronize() in device code, which CUDA 12 removed.
//
// Nothing has to wait: the child reads only what this block wrote before the
// launch (the __syncthreads() makes every thread's fold visible to thread 0,
// and a child sees what its launching thread saw), the parent never reads what
// the child writes, and a grid is complete only when all its children are, so
// the host's one synchronisation after the top-level grid covers the chain.
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
    unsigned int istride = (isize + 1) / 2;
    if (tid < isize - istride)
        idata[tid] += idata[tid + istride];
    __syncthreads();

    // nested invocation: one child block on the lower half; no wait
    if (tid == 0)
        nestedReduce<<<1, istride>>>(idata, odata, istride);
}
