// Held out of the model's fit (tests/model/heldout/README.md).  Each warp
// reads its 32 items coalesced, then sorts them in registers with one shuffle:
// lane l < 16 takes the item of lane 2l (even), lane l >= 16 that of lane
// 2(l - 16) + 1 (odd).  The first half-warp stores 16 consecutive ints to the
// left half, the second 16 to the right: no divergence, coalesced both ways.
__global__ void shuffleEvenOdd(const int *src, int *dst, unsigned int n)
{
    unsigned int gx = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int lane = threadIdx.x % 32;
    unsigned int warp0 = gx - lane; // the warp's first item
    int x = gx < n ? src[gx] : 0;
    unsigned int from = lane < 16 ? 2 * lane : 2 * (lane - 16) + 1;
    int v = __shfl_sync(0xffffffffu, x, from);

    if (warp0 + from < n) {
        if (lane < 16)
            dst[warp0 / 2 + lane] = v;
        else
            dst[n / 2 + warp0 / 2 + (lane - 16)] = v;
    }
}
