// Held out of the model's fit (tests/model/heldout/README.md).  Even-odd
// through shared memory with 8-byte loads: thread t < count/2 reads the pair
// (2t, 2t + 1) of the block's range as one int2 and stores its even item to
// the tile's left half, its odd one to the right half; after the barrier
// every thread writes one slot, coalesced.
#define BLOCK 512

__global__ void shuffleEvenOddShared(const int *src, int *dst, unsigned int n)
{
    __shared__ int tile[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int base = blockIdx.x * blockDim.x;
    unsigned int count = n - base < blockDim.x ? n - base : blockDim.x;
    unsigned int half = count / 2;

    if (tid < half) {
        int2 pair = reinterpret_cast<const int2 *>(src + base)[tid];
        tile[tid] = pair.x;
        tile[half + tid] = pair.y;
    }
    __syncthreads();
    if (tid < half)
        dst[base / 2 + tid] = tile[tid];
    else if (tid < count)
        dst[n / 2 + base / 2 + (tid - half)] = tile[tid];
}
