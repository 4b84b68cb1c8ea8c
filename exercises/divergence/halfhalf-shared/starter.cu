// divergence/halfhalf-shared: the same shuffle as divergence/halfhalf (even
// items of src, in order, to the left half of dst, odd items to the right
// half; n even), now through shared memory.  The lab launches ceil(n / 512)
// blocks of 512 threads.
//
// This is still the global-memory version: rewrite it so that each block
// reads its 512 items of src once, coalesced, into a shared tile, and each
// thread then takes its destination item from the tile.
#define BLOCK 512

__global__ void shuffleHalfHalfShared(const int *src, int *dst, unsigned int n)
{
    unsigned int gx = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int HALF = n / 2;

    if (gx >= n)
        return;
    if (gx < HALF) { // left half
        dst[gx] = src[gx * 2];
    } else {
        dst[gx] = src[(gx - HALF) * 2 + 1];
    }
}
