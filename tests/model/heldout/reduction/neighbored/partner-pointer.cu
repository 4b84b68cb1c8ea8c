// Held out of the model's fit (tests/model/heldout/README.md).  The neighbored
// tree walked by level: level k pairs element tid with tid + 2^k, and a thread
// works while the low k + 1 bits of its index are zero (a shift, not a
// modulo); the partner is read through a pointer.
__global__ void reduceNeighbored(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    unsigned int first = blockIdx.x * blockDim.x;
    int *mine = g_idata + first + tid;
    unsigned int count = min(blockDim.x, n - first);

    for (unsigned int k = 0; (1u << k) < blockDim.x; k++) {
        unsigned int stride = 1u << k;
        if (((tid >> k) & 1u) == 0 && (tid & (stride - 1)) == 0 && tid + stride < count) {
            const int *partner = mine + stride;
            *mine += *partner;
        }
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = *mine;
}
