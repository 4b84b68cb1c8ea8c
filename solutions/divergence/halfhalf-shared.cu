// Reference for divergence/halfhalf-shared.  A block owns src[base, base +
// count), count = 512 except in the last block (n is even, so count is too).
// Its even items go to dst[base/2, base/2 + count/2), its odd items to the
// same range of the right half.  The block reads its items once, coalesced,
// into a tile; then thread t fills destination slot t from the destination's
// view, as in half-by-half: the first count/2 threads gather the tile's even
// items, the others its odd ones.  Both halves of a full block are 256
// threads, whole warps: no warp diverges.  The stores are coalesced too.
#define BLOCK 512

__global__ void shuffleHalfHalfShared(const int *src, int *dst, unsigned int n)
{
    __shared__ int tile[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int base = blockIdx.x * blockDim.x;
    unsigned int HALF = n / 2;
    unsigned int count = n - base < blockDim.x ? n - base : blockDim.x;
    unsigned int half = count / 2;

    if (tid < count)
        tile[tid] = src[base + tid];
    __syncthreads();
    if (tid < half) { // left half: the tile's even items
        dst[base / 2 + tid] = tile[tid * 2];
    } else if (tid < count) { // right half: its odd items
        dst[HALF + base / 2 + (tid - half)] = tile[(tid - half) * 2 + 1];
    }
}
