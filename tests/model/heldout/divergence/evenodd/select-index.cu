// Held out of the model's fit (tests/model/heldout/README.md).  Even-odd from
// the source's side with no branch at all: the destination index is computed
// (the lane's parity picks the half), so no warp diverges.
__global__ void shuffleEvenOdd(const int *src, int *dst, unsigned int n)
{
    unsigned int gx = blockIdx.x * blockDim.x + threadIdx.x;

    if (gx < n)
        dst[(gx & 1) * (n / 2) + gx / 2] = src[gx];
}
