// Held out of the model's fit (tests/model/heldout/README.md).  The issue's
// last warp with __syncwarp: the notes' unrolled last warp, kept in global
// memory, made correct by the memory model: each round every lane reads,
// the warp meets (__syncwarp), then writes and meets again.
__global__ void reduceUnrollWarps8(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x * 8;
    int sum = 0;

    if (idx + 7 * blockDim.x < n) {
        int a1 = g_idata[idx];
        int a2 = g_idata[idx + blockDim.x];
        int a3 = g_idata[idx + 2 * blockDim.x];
        int a4 = g_idata[idx + 3 * blockDim.x];
        int b1 = g_idata[idx + 4 * blockDim.x];
        int b2 = g_idata[idx + 5 * blockDim.x];
        int b3 = g_idata[idx + 6 * blockDim.x];
        int b4 = g_idata[idx + 7 * blockDim.x];
        sum = a1 + a2 + a3 + a4 + b1 + b2 + b3 + b4;
    } else {
        for (unsigned int k = 0; k < 8; k++)
            if (idx + k * blockDim.x < n) sum += g_idata[idx + k * blockDim.x];
    }
    idata[tid] = sum;
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 32; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid < 32) {
        volatile int *v = idata;
        int s = v[tid];
        for (unsigned int stride = 32; stride > 0; stride >>= 1) {
            s += v[tid + stride];
            __syncwarp();
            v[tid] = s;
            __syncwarp();
        }
        if (tid == 0) g_odata[blockIdx.x] = s;
    }
}
