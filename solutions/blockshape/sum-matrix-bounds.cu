// Reference for blockshape/sum-matrix-bounds: the notes' sumMatrixOnGPU2D
// (its `__global` typo fixed).  The bounds check keeps the threads of the last
// column and row of blocks that fall outside the matrix from reading and
// writing.
__global__ void sumMatrixOnGPU2D(float *A, float *B, float *C, int nx, int ny)
{
    unsigned int ix = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int iy = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int idx = iy * nx + ix;

    if (ix < nx && iy < ny) {
        C[idx] = A[idx] + B[idx];
    }
}
