// Held out of the model's fit (tests/model/heldout/README.md).  Unrolling 8
// with the tree in shared memory: eight loads a block apart summed into a
// tile, the interleaved tree there; the input is only read.
#define BLOCK 512

__global__ void reduceUnrolling8(int *g_idata, int *g_odata, unsigned int n) {
    __shared__ int tile[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 8 + tid;
    int sum = 0;

    if (idx + 7 * blockDim.x < n) {
        int a[8];
#pragma unroll
        for (int k = 0; k < 8; k++)
            a[k] = g_idata[idx + k * blockDim.x];
#pragma unroll
        for (int k = 0; k < 8; k++)
            sum += a[k];
    } else {
        for (unsigned int k = 0; k < 8; k++)
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
