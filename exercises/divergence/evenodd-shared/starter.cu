// divergence/evenodd-shared: the same shuffle as divergence/evenodd (even
// items of src, in order, to the left half of dst, odd items to the right
// half; n even), now through shared memory.  The lab launches ceil(n / 512)
// blocks of 512 threads.
//
// This is still the global-memory version: rewrite it so that each thread
// puts its own item into its place in a shared tile (even items to the tile's
// left half, odd ones to its right half), and the block then writes the
// tile's two halves to dst with coalesced stores.
#define BLOCK 512

__global__ void shuffleEvenOddShared(const int *src, int *dst, unsigned int n)
{
    unsigned int gx = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int HALF = n / 2;

    if (gx >= n)
        return;
    if (gx % 2 == 0) {
        dst[gx / 2] = src[gx];
    } else {
        dst[HALF + gx / 2] = src[gx];
    }
}
