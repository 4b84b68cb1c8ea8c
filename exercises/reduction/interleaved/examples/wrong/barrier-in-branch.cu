// expect: WRONG (__syncthreads() inside `if (tid < stride)`: half the block never reaches it; undefined behaviour the simulator's barrier check names, whatever the GPU's sum)
__global__ void reduceInterleaved(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x;

    if (idx >= n) idata[tid] = 0;
    __syncthreads();

    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride) {
            idata[tid] += idata[tid + stride];
            __syncthreads();
        }
    }

    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}
