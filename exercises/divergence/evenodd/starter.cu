// divergence/evenodd: the same shuffle as divergence/halfhalf (even items to
// the left half of dst, odd items to the right half), graded on speed against
// the half-by-half kernel.
//
// This starter is the half-by-half kernel under the new name: correct, and
// exactly as fast as the baseline.  Rewrite it from the source's side.
__global__ void shuffleEvenOdd(const int *src, int *dst, unsigned int n)
{
    unsigned int gx = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int HALF = n / 2;

    if (gx >= n)
        return;
    if (gx < HALF) {
        dst[gx] = src[gx * 2];
    } else {
        dst[gx] = src[(gx - HALF) * 2 + 1];
    }
}
