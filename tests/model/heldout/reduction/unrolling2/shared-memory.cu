// Held out of the model's fit (tests/model/heldout/README.md).  Unrolling 2
// with the tree in shared memory: each thread adds its two elements (a block
// apart) into a tile, the interleaved tree runs there; the input is only read.
#define BLOCK 512

__global__ void reduceUnrolling2(int *g_idata, int *g_odata, unsigned int n) {
    __shared__ int tile[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 2 + tid;

    int a = idx < n ? g_idata[idx] : 0;
    int b = idx + blockDim.x < n ? g_idata[idx + blockDim.x] : 0;
    tile[tid] = a + b;
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            tile[tid] += tile[tid + stride];
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = tile[0];
}
