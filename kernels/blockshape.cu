// blockshape.cu - the blockshape chapter's demo kernels (lab/demos/demo-blockshape.c).
//
// sumMatrixOnGPU2D is the notes' kernel (its `__global` typo fixed); the two
// helpers fill the inputs on the device and count wrong sums, so that a
// 16384 x 16384 sweep needs no host copies of 1 GiB matrices.
// Built to PTX by the Makefile (build/libexec/cudalab/blockshape.ptx).

#include "common/common.h"

__global__ void sumMatrixOnGPU2D(float *A, float *B, float *C, int nx, int ny)
{
    unsigned int ix = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int iy = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int idx = iy * nx + ix;

    if (ix < nx && iy < ny) {
        C[idx] = A[idx] + B[idx];
    }
}

// A[i] = i % 1024, B[i] = (i % 7) * 0.5: small integers, so every sum is exact.
extern "C" __global__ void labFillMatrix(float *A, float *B, float *C, unsigned long long n)
{
    for (unsigned long long i = lab_grid_first(); i < n; i += lab_grid_stride()) {
        A[i] = (float)(i % 1024);
        B[i] = (float)(i % 7) * 0.5f;
        C[i] = -1.0f;
    }
}

// bad[0] += elements of C that are not A + B; C is poisoned again for the next shape.
extern "C" __global__ void labCheckMatrix(const float *A, const float *B, float *C,
                                          unsigned long long n, unsigned int *bad)
{
    unsigned int mine = 0;
    for (unsigned long long i = lab_grid_first(); i < n; i += lab_grid_stride()) {
        mine += C[i] != A[i] + B[i];
        C[i] = -1.0f;
    }
    if (mine)
        atomicAdd(bad, mine);
}
