// common.h - what the lab's own CUDA C++ sources share, as the examples of the book the course
// notes follow share its common/common.h: the grid-stride loop of the lab's kernels
// (kernels/*.cu, built to PTX), and, for the tests and benchmarks that are programs of their
// own (tests/bench/reduce-vs-cub.cu, tests/gpu/occ-check.cu), the book's CHECK.  Include it
// from the repository's root: #include "common/common.h" (nvcc -I. at the root).
//
// The lab's C code (lab/, the harness in common/*.c) never uses the CHECK macros: it returns
// LAB_E* codes with a lab_err.  They end a standalone test program at its first failed call,
// as the book's CHECK does, and say which call failed where.
#ifndef LAB_COMMON_COMMON_H
#define LAB_COMMON_COMMON_H

#include <cstdio>
#include <cstdlib>

#include <cuda.h>
#include <cuda_runtime.h>

// A grid-stride loop over n elements, 64-bit so that buffers past 2^32 elements work:
//     for (unsigned long long i = lab_grid_first(); i < n; i += lab_grid_stride())
__device__ __forceinline__ unsigned long long
lab_grid_first()
{
    return blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
}

__device__ __forceinline__ unsigned long long
lab_grid_stride()
{
    return (unsigned long long)gridDim.x * blockDim.x;
}

// The exit status of a program whose CUDA call failed: 1 is its own finding (a wrong sum,
// a disagreement), 2 is "the program could not run".
#define LAB_CHECK_EXIT 2

// CHECK(call): a runtime-API call (cudaMalloc, cudaEventRecord, a launch's cudaGetLastError)
#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            exit(LAB_CHECK_EXIT);                                                                  \
        }                                                                                          \
    } while (0)

// CHECK_CU(call): a driver-API call (cuInit, cuModuleLoad, ...; link with -lcuda)
#define CHECK_CU(call)                                                                             \
    do {                                                                                           \
        CUresult r_ = (call);                                                                      \
        if (r_ != CUDA_SUCCESS) {                                                                  \
            const char *s_ = "";                                                                   \
            cuGetErrorString(r_, &s_);                                                             \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, s_);                     \
            exit(LAB_CHECK_EXIT);                                                                  \
        }                                                                                          \
    } while (0)

#endif
