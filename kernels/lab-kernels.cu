// lab-kernels.cu - the lab's own device code used by the drivers on a GPU: their timing's L2
// flush, and the inputs and expected sums of the integer reduction; nothing a student writes.
// Built to PTX by the Makefile and loaded by common/timing.c; extern "C" so the names are
// not mangled.
//
// The flush READS a buffer several times the L2's size: a copy or memset would
// leave dirty lines that the timed kernel then pays to write back (+20 % on the
// H100, see docs/design/timing.md "Flush by reading, not by writing").

#include "common/common.h"

extern "C" __global__ void lab_flush_l2(const int4 *buf, unsigned long long n, int *sink)
{
    int acc = 0;
    for (unsigned long long i = lab_grid_first(); i < n; i += lab_grid_stride()) {
        int4 v = buf[i];
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    // Never true for the zeroed buffer the driver allocates; keeps the loads alive.
    if (acc == 0x7fffffff)
        *sink = acc;
}

// Inputs and expected sums made on the device (common/devgen.c), so that a grading on a GPU
// does not fill hundreds of MB on the host: the integer reduction's input bytes, its padding, and
// the sums it must produce.  The sums are the lab's own, computed before any student kernel runs,
// and copied to the host at once; unsigned additions wrap exactly, in any order.

__device__ __forceinline__ unsigned long long lab_mix64(unsigned long long z)
{
    // splitmix64's finaliser: a different 64-bit value for every index
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

// out[i] = a byte (0..255) drawn from seed and i for i < n, poison for n <= i < padded
extern "C" __global__ void lab_fill_bytes(unsigned *out, unsigned long long n,
                                          unsigned long long padded, unsigned long long seed,
                                          unsigned poison)
{
    for (unsigned long long i = lab_grid_first(); i < padded; i += lab_grid_stride())
        out[i] = i < n ? (unsigned)(lab_mix64(seed + i * 0x9e3779b97f4a7c15ULL) & 0xFF) : poison;
}

__device__ __forceinline__ unsigned lab_block_total(unsigned v)
{
    __shared__ unsigned warp_sums[32];
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    if (threadIdx.x % 32 == 0)
        warp_sums[threadIdx.x / 32] = v;
    __syncthreads();
    v = threadIdx.x < blockDim.x / 32 ? warp_sums[threadIdx.x] : 0;
    if (threadIdx.x < 32)
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_xor_sync(0xffffffffu, v, o);
    return v; // whole in thread 0
}

// out[b] = the sum of in[b * per_block .. min(n, (b + 1) * per_block)), one block per b
// (blockDim.x a multiple of 32)
extern "C" __global__ void lab_block_sums(const unsigned *in, unsigned long long n,
                                          unsigned long long per_block, unsigned *out)
{
    const unsigned long long first = blockIdx.x * per_block;
    const unsigned long long end = first + per_block < n ? first + per_block : n;
    unsigned v = 0;
    for (unsigned long long i = first + threadIdx.x; i < end; i += blockDim.x)
        v += in[i];
    v = lab_block_total(v);
    if (threadIdx.x == 0)
        out[blockIdx.x] = v;
}

// *out += the sum of in[0 .. n) (*out zeroed before; blockDim.x a multiple of 32)
extern "C" __global__ void lab_total_sum(const unsigned *in, unsigned long long n, unsigned *out)
{
    unsigned v = 0;
    for (unsigned long long i = lab_grid_first(); i < n; i += lab_grid_stride())
        v += in[i];
    v = lab_block_total(v);
    if (threadIdx.x == 0)
        atomicAdd(out, v);
}
