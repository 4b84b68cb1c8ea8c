// Held out of the model's fit (tests/model/heldout/README.md).  Interleaved
// pairs in global memory, each working thread keeping its running sum in a
// register: it reads only its partner each round and stores its sum back for
// the thread that will read it next.
__global__ void reduceInterleaved(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + tid;
    int *idata = g_idata + blockIdx.x * blockDim.x;
    int sum = idx < n ? idata[tid] : 0;

    if (idx >= n) idata[tid] = 0;
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride) {
            sum += idata[tid + stride];
            idata[tid] = sum;
        }
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = sum;
}
