// Held out of the model's fit (tests/model/heldout/README.md).  Half-by-half
// through shared memory, the tile read back 8 bytes at a time: after the
// coalesced copy into the tile, thread t < count/2 reads the tile's pair
// (2t, 2t + 1) as one int2 and writes the even item to the left half and the
// odd one to the right half.  Half the threads store, twice each.
#define BLOCK 512

__global__ void shuffleHalfHalfShared(const int *src, int *dst, unsigned int n)
{
    __shared__ int2 tile2[BLOCK / 2];
    int *tile = reinterpret_cast<int *>(tile2);
    unsigned int tid = threadIdx.x;
    unsigned int base = blockIdx.x * blockDim.x;
    unsigned int count = n - base < blockDim.x ? n - base : blockDim.x;

    if (tid < count)
        tile[tid] = src[base + tid];
    __syncthreads();
    if (tid < count / 2) {
        int2 pair = tile2[tid];
        dst[base / 2 + tid] = pair.x;
        dst[n / 2 + base / 2 + tid] = pair.y;
    }
}
