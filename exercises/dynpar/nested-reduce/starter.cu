// nestedReduce: a reduction that recurses on the GPU (dynamic parallelism).
// Block b folds the upper half of its elements onto the lower half, then its
// thread 0 launches a child grid of one block on the half that is left, and so
// on, until one element holds the block's sum.  Written the way the book did
// it before CUDA 12: the parent waits for its child with cudaDeviceSynchronize().
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

    // nested invocation: one child block on the lower half
    if (tid == 0) {
        nestedReduce<<<1, istride>>>(idata, odata, istride);
        cudaDeviceSynchronize(); // wait for the child before the block ends
    }
    __syncthreads();
}
