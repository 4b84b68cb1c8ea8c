// Reference for divergence/evenodd-shared.  A block owns src[base, base +
// count), count = 512 except in the last block (n is even, so count is too).
// Each thread reads its own item, coalesced, and from the source's view, as in
// even-odd, drops it into its place in the tile: even items into the tile's
// left half, odd ones into its right half (every warp diverges here, on a
// shared-memory store).  After the barrier the tile's left half goes to
// dst[base/2 ...] and its right half to dst[HALF + base/2 ...], coalesced.
#define BLOCK 512

__global__ void shuffleEvenOddShared(const int *src, int *dst, unsigned int n)
{
    __shared__ int tile[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int base = blockIdx.x * blockDim.x;
    unsigned int HALF = n / 2;
    unsigned int count = n - base < blockDim.x ? n - base : blockDim.x;
    unsigned int half = count / 2;

    if (tid < count) {
        if (tid % 2 == 0) {
            tile[tid / 2] = src[base + tid];
        } else {
            tile[half + tid / 2] = src[base + tid];
        }
    }
    __syncthreads();
    if (tid < half) {
        dst[base / 2 + tid] = tile[tid];
    } else if (tid < count) {
        dst[HALF + base / 2 + (tid - half)] = tile[tid];
    }
}
