// Reference for blockshape/fastest-shape.  On the H100 (docs/h100,
// docs/design/gpu-facts.md) the 256-thread shapes that are at least 64 wide
// came out fastest: (128,2) 1175 us, (256,1) 1176, (64,4) 1180, all within
// 0.5 % of each other; the 1024-thread shapes were slowest ((32,32) 1373 us,
// 17 % more).  Every shape reads whole 32-byte sectors on today's GPUs, so the
// difference is in how many blocks an SM holds and how quickly they turn
// over, not in coalescing as on the notes' Fermi.
__device__ unsigned int chosenBlockX = 128;
__device__ unsigned int chosenBlockY = 2;

__global__ void sumMatrixOnGPU2D(float *A, float *B, float *C, int nx, int ny)
{
    unsigned int ix = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int iy = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int idx = iy * nx + ix;

    if (ix < nx && iy < ny) {
        C[idx] = A[idx] + B[idx];
    }
}
