// Reference for divergence/halfhalf: note 004's half-by-half shuffle, each
// thread seen from the destination, with the bounds check the notes leave out.
__global__ void shuffleHalfHalf(const int *src, int *dst, unsigned int n)
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
