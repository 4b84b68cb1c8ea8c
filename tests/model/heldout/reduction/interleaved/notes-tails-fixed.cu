// Held out of the model's fit (tests/model/heldout/README.md).  The notes'
// reduceInterleaved with its tail fixed the other way: no early return (every
// thread reaches every barrier), and a thread adds its partner only when the
// partner lies before n, instead of zeroing the elements past n first.
__global__ void reduceInterleaved(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x;

    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride && idx + stride < n) {
            idata[tid] += idata[tid + stride];
        }
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}
