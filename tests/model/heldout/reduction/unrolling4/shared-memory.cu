// Held out of the model's fit (tests/model/heldout/README.md).  Unrolling 4
// with the tree in shared memory: four loads a block apart, their sum into a
// tile, the interleaved tree there.
#define BLOCK 512

__global__ void reduceUnrolling4(int *g_idata, int *g_odata, unsigned int n) {
    __shared__ int tile[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 4 + tid;
    int sum = 0;

    if (idx + 3 * blockDim.x < n) {
        int a = g_idata[idx];
        int b = g_idata[idx + blockDim.x];
        int c = g_idata[idx + 2 * blockDim.x];
        int d = g_idata[idx + 3 * blockDim.x];
        sum = a + b + c + d;
    } else {
        for (unsigned int k = 0; k < 4; k++)
            if (idx + k * blockDim.x < n) sum += g_idata[idx + k * blockDim.x];
    }
    tile[tid] = sum;
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            tile[tid] += tile[tid + stride];
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = tile[0];
}
