// Held out of the model's fit (tests/model/heldout/README.md).  The matrix sum
// read through __ldg from __restrict__ pointers, in blocks of 256 x 1.
__device__ unsigned int chosenBlockX = 256;
__device__ unsigned int chosenBlockY = 1;

__global__ void sumMatrixOnGPU2D(float *__restrict__ A, float *__restrict__ B,
                                 float *__restrict__ C, int nx, int ny)
{
    unsigned int ix = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int iy = blockIdx.y * blockDim.y + threadIdx.y;

    if (ix < nx && iy < ny) {
        size_t idx = (size_t)iy * nx + ix;
        C[idx] = __ldg(&A[idx]) + __ldg(&B[idx]);
    }
}
