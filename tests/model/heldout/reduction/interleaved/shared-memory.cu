// Held out of the model's fit (tests/model/heldout/README.md).  Interleaved
// pairs in shared memory: the slice copied into a tile (zeros past n), the
// tree run there, one sum written; the input is only read.
#define BLOCK 512

__global__ void reduceInterleaved(int *g_idata, int *g_odata, unsigned int n) {
    __shared__ int tile[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + tid;

    tile[tid] = idx < n ? g_idata[idx] : 0;
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            tile[tid] += tile[tid + stride];
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = tile[0];
}
