// Held out of the model's fit (tests/model/heldout/README.md).  The issue's
// shared-memory neighbored-less: the block's slice copied once into a tile
// (past n: zeros), the rearranged neighbored pairs run there
// (index = 2 * stride * tid), one sum written.  The input is only read.
#define BLOCK 512

__global__ void reduceNeighboredLess(int *g_idata, int *g_odata, unsigned int n) {
    __shared__ int tile[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + tid;

    tile[tid] = idx < n ? g_idata[idx] : 0;
    __syncthreads();
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        unsigned int index = 2 * stride * tid;
        if (index < blockDim.x)
            tile[index] += tile[index + stride];
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = tile[0];
}
