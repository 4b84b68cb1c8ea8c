// expect: WRONG (the loop ends at stride 2: idata[1] is never added to idata[0])
__global__ void reduceInterleaved(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;

    // this block's slice of the input
    int *idata = g_idata + blockIdx.x * blockDim.x;

    // past n (only in the last block): a zero that changes no sum
    if (idx >= n) idata[tid] = 0;
    __syncthreads();

    // in-place reduction in global memory
    for (unsigned int stride = blockDim.x / 2; stride > 1; stride >>= 1) {
        if (tid < stride) {
            idata[tid] += idata[tid + stride];
        }
        __syncthreads();
    }

    // write result for this block to global mem
    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}
