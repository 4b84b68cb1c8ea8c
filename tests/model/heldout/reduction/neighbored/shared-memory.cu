// Held out of the model's fit (tests/model/heldout/README.md).  The neighbored
// pairs in shared memory: the block copies its slice into a tile once, runs
// the same tree there (tid % (2 * stride) == 0 adds its neighbour), and writes
// one sum.  The input is only read.
#define BLOCK 512

__global__ void reduceNeighbored(int *g_idata, int *g_odata, unsigned int n) {
    __shared__ int tile[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + tid;

    tile[tid] = idx < n ? g_idata[idx] : 0;
    __syncthreads();
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        if (tid % (2 * stride) == 0)
            tile[tid] += tile[tid + stride];
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = tile[0];
}
