// Held out of the model's fit (tests/model/heldout/README.md).  The matrix sum
// with the element's index from the thread's linear rank in its block and the
// block's origin, in blocks of 64 x 4.
__device__ unsigned int chosenBlockX = 64;
__device__ unsigned int chosenBlockY = 4;

__global__ void sumMatrixOnGPU2D(float *A, float *B, float *C, int nx, int ny)
{
    unsigned int rank = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned int ix = blockIdx.x * blockDim.x + rank % blockDim.x;
    unsigned int iy = blockIdx.y * blockDim.y + rank / blockDim.x;
    unsigned int idx = iy * (unsigned int)nx + ix;

    if (ix < (unsigned int)nx && iy < (unsigned int)ny)
        C[idx] = A[idx] + B[idx];
}
