// ncu-by-hand: the notes' way of profiling, without the lab: one small
// runtime-API program that launches one kernel once, profiled by ncu run by
// hand.  The kernel comes from the file named at compile time, its launch from
// the macros (tests/gpu/run-profile.sh takes them from `cudalab profile`'s own
// driver command, so both profile the same launch):
//   nvcc -O3 -arch=sm_90 -include SOLUTION.cu -DKERNEL=reduceUnrolling8 -DREDUCE_INT \
//        -DN=16777216 -DBLOCK=512 -DUNROLL=8 -DGRID_PER_SM=0 ncu-by-hand.cu
// One signature family each (the lab's mangled parameter codes):
//   REDUCE_INT   (int *, int *, unsigned)                 PiS_j   grid ceil(N / (BLOCK*UNROLL)),
//                                                                 or GRID_PER_SM x the SMs
//   REDUCE_FLOAT (const float *, float *, unsigned)       PKfPfj  grid ceil(N / (BLOCK*UNROLL))
//   SHUFFLE      (const int *, int *, unsigned)           PKiPij  grid ceil(N / BLOCK)
//   RECORDS      (const Record *, const int *, const int *, const int *, int *, unsigned)
//                                                                 grid ceil(N / BLOCK)
//   MATH         (float *)                                Pf      grid N / BLOCK
// The inputs are ones: these kernels' control flow depends on indices only, so
// the deterministic counters do not depend on the values.
#include <cstdio>
#include <vector>

#ifndef N
#define N (1u << 24)
#endif
#ifndef BLOCK
#define BLOCK 512
#endif
#ifndef UNROLL
#define UNROLL 1
#endif
#ifndef GRID_PER_SM
#define GRID_PER_SM 0
#endif

template <typename T> static T *device_filled(size_t count, T value)
{
    std::vector<T> h(count, value);
    T *d = nullptr;
    cudaMalloc(&d, count * sizeof(T));
    cudaMemcpy(d, h.data(), count * sizeof(T), cudaMemcpyHostToDevice);
    return d;
}

static unsigned grid_for(unsigned per_block)
{
    if (GRID_PER_SM > 0) {
        int sms = 0;
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
        return GRID_PER_SM * (unsigned)sms;
    }
    return (unsigned)((N + per_block - 1) / per_block);
}

int main()
{
    const unsigned n = N;
#if defined(REDUCE_INT)
    const unsigned grid = grid_for(BLOCK * UNROLL);
    const size_t covered = (size_t)grid * BLOCK * UNROLL; /* a grid-stride grid covers less */
    int *in = device_filled<int>((covered > n ? covered : n) + 1024, 1);
    int *out = device_filled<int>(grid + 64, 0);
    KERNEL<<<grid, BLOCK>>>(in, out, n);
#elif defined(REDUCE_FLOAT)
    const unsigned grid = grid_for(BLOCK * UNROLL);
    float *in = device_filled<float>((size_t)grid * BLOCK * UNROLL, 1.0f);
    float *out = device_filled<float>(grid + 64, 0.0f);
    KERNEL<<<grid, BLOCK>>>(in, out, n);
#elif defined(SHUFFLE)
    const unsigned grid = grid_for(BLOCK);
    int *src = device_filled<int>(n, 1);
    int *dst = device_filled<int>(n, 0);
    KERNEL<<<grid, BLOCK>>>(src, dst, n);
#elif defined(RECORDS)
    const unsigned grid = grid_for(BLOCK);
    Record *recs = device_filled<Record>(n, Record{ 1, 1, 1 });
    int *keys = device_filled<int>(n, 1), *values = device_filled<int>(n, 1);
    int *flags = device_filled<int>(n, 1), *out = device_filled<int>(n, 0);
    KERNEL<<<grid, BLOCK>>>(recs, keys, values, flags, out, n);
#elif defined(MATH)
    float *c = device_filled<float>(n, 0.0f);
    KERNEL<<<n / BLOCK, BLOCK>>>(c);
#else
#error define REDUCE_INT, REDUCE_FLOAT, SHUFFLE, RECORDS or MATH
#endif
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s: %s\n", "KERNEL", cudaGetErrorString(e));
    return e != cudaSuccess;
}
