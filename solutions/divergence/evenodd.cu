// Reference for divergence/evenodd: note 004's even-odd shuffle, each thread
// seen from the source.  Every warp diverges (even and odd lanes take
// different branches), yet each thread reads its own element once, side by
// side with its neighbours: fewer bytes through the memory system than
// half-by-half, whose reads skip every other element.
__global__ void shuffleEvenOdd(const int *src, int *dst, unsigned int n)
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
