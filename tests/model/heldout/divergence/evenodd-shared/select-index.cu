// Held out of the model's fit (tests/model/heldout/README.md).  Even-odd
// through shared memory with no branch: the thread's parity picks the tile's
// half it stores into (index arithmetic, not an if), so no warp diverges on
// the shared-memory store.
#define BLOCK 512

__global__ void shuffleEvenOddShared(const int *src, int *dst, unsigned int n)
{
    __shared__ int tile[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int base = blockIdx.x * blockDim.x;
    unsigned int count = n - base < blockDim.x ? n - base : blockDim.x;
    unsigned int half = count / 2;

    if (tid < count)
        tile[(tid & 1) * half + tid / 2] = src[base + tid];
    __syncthreads();
    if (tid < count) {
        unsigned int right = tid >= half;
        dst[right * (n / 2) + base / 2 + (tid - right * half)] = tile[tid];
    }
}
