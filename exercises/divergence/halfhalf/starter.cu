// divergence/halfhalf: put the even-numbered items of src, in order, in the
// left half of dst and the odd-numbered items in the right half.  n is even;
// the lab launches ceil(n / 512) blocks of 512 threads.
//
// This is note 004's half-by-half kernel as the notes give it.
__global__ void shuffleHalfHalf(const int *src, int *dst, unsigned int n)
{
    unsigned int gx = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int HALF = n / 2;

    if (gx < HALF) { // left half
        dst[gx] = src[gx * 2];
    } else {
        dst[gx] = src[(gx - HALF) * 2 + 1];
    }
}
