// ncu-by-hand: the notes' way of profiling, without the lab: one small
// runtime-API program that launches one kernel once, profiled by ncu run by
// hand.  The kernel comes from the file named at compile time:
//   nvcc -O3 -arch=sm_90 -include SOLUTION.cu -DKERNEL=reduceNeighbored -DREDUCE ...
//   nvcc -O3 -arch=sm_90 -include SOLUTION.cu -DKERNEL=mathKernel1 -DMATH ...
// REDUCE: (int *, int *, unsigned), n = 2^24, block BLOCK, grid n / BLOCK.
// MATH:   (float *), n = 2^22, block BLOCK, grid n / BLOCK.
#include <cstdio>
#include <vector>

#ifndef BLOCK
#define BLOCK 512
#endif

int main()
{
#if defined(REDUCE)
    const unsigned n = 1u << 24;
    std::vector<int> h(n, 1);
    int *in, *out;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&out, n / BLOCK * sizeof(int));
    cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    KERNEL<<<n / BLOCK, BLOCK>>>(in, out, n);
#elif defined(MATH)
    const unsigned n = 1u << 22;
    float *c;
    cudaMalloc(&c, n * sizeof(float));
    KERNEL<<<n / BLOCK, BLOCK>>>(c);
#else
#error define REDUCE or MATH
#endif
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s: %s\n", "KERNEL", cudaGetErrorString(e));
    return e != cudaSuccess;
}
