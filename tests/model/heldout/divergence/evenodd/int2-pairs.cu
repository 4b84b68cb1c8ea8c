// Held out of the model's fit (tests/model/heldout/README.md).  Even-odd with
// 8-byte loads: each even thread reads its pair (src[gx], src[gx + 1]) as one
// int2 and writes both halves; odd threads have nothing to do.  n is even, so
// every pair is whole.
__global__ void shuffleEvenOdd(const int *src, int *dst, unsigned int n)
{
    unsigned int gx = blockIdx.x * blockDim.x + threadIdx.x;

    if (gx % 2 != 0 || gx >= n)
        return;
    int2 pair = reinterpret_cast<const int2 *>(src)[gx / 2];
    dst[gx / 2] = pair.x;
    dst[n / 2 + gx / 2] = pair.y;
}
