// tests/sim/kernels.cu - kernels for tests/test-sim.c (the simulator's unit
// tests), built by the Makefile with nvcc -ptx -arch=sm_90 -O3 -lineinfo.
// extern "C": the tests launch them by plain name.

// --- reconvergence ---------------------------------------------------------
// Per thread: which branches it took and the active mask it saw in each.
extern "C" __global__ void nested_branches(unsigned *mask_out, int *path_out)
{
    unsigned t = threadIdx.x;
    int path = 0;
    unsigned m = 0;
    if (t & 1) {
        m = __activemask();
        path = 1;
        if (t & 2) {
            path = 3;
            m = __activemask();
        }
    } else {
        path = 2;
        m = __activemask();
    }
    mask_out[t] = m;
    path_out[t] = path;
}

// Varying trip counts, a break and a continue: the loop's exit waits for every lane.
extern "C" __global__ void loops(int *out)
{
    unsigned t = threadIdx.x;
    int acc = 0;
    for (int i = 0; i < (int)(t % 7) + 1; i++) {
        if (i == 3 && (t & 4))
            continue;
        if (i == 5 && t > 40)
            break;
        acc += i * (int)t;
    }
    out[t] = acc + (int)__popc(__activemask());
}

// Early return before a barrier (the last, partial block): fine by the PTX ISA.
extern "C" __global__ void early_return(const int *in, int *out, unsigned n)
{
    __shared__ int s[256];
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    s[threadIdx.x] = in[i];
    __syncthreads();
    out[i] = s[threadIdx.x] + s[0];
}

// --- arithmetic ------------------------------------------------------------
extern "C" __global__ void float_ops(const float *a, const float *b, float *out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i], y = b[i];
    out[8 * i + 0] = __fadd_rn(x, y);
    out[8 * i + 1] = __fmul_rn(x, y);
    out[8 * i + 2] = __fdiv_rn(x, y);
    out[8 * i + 3] = __fmaf_rn(x, y, 1.0f);
    out[8 * i + 4] = __fsqrt_rn(x);
    out[8 * i + 5] = fminf(x, y);
    out[8 * i + 6] = fmaxf(x, y);
    out[8 * i + 7] = __fsub_rn(x, y);
}

extern "C" __global__ void int_ops(const int *a, const int *b, int *out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = a[i], y = b[i];
    unsigned ux = (unsigned)x, uy = (unsigned)y;
    out[8 * i + 0] = y ? x / y : 0;
    out[8 * i + 1] = y ? x % y : 0;
    out[8 * i + 2] = (int)(uy ? ux / uy : 0);
    out[8 * i + 3] = (int)(uy ? ux % uy : 0);
    out[8 * i + 4] = x >> (uy & 31);
    out[8 * i + 5] = (int)(ux << (uy & 31));
    out[8 * i + 6] = __mulhi(x, y);
    out[8 * i + 7] = (int)(float)x + __float2int_rn((float)y * 0.5f);
}

// --- atomics and warp operations -------------------------------------------
extern "C" __global__ void atomics(int *counter, float *fsum, unsigned *inc, int *maxv, int *cas)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(counter, 1);
    atomicAdd(fsum, 1.0f);
    atomicInc(inc, 99);
    atomicMax(maxv, t);
    int old = *cas, assumed;
    do {
        assumed = old;
        old = atomicCAS(cas, assumed, assumed + 2);
    } while (old != assumed);
}

// what each access counts as: a load per warp, shared and global atomics per warp, one
// global atomic per block (Nsight Compute counts atomics apart from loads and stores)
extern "C" __global__ void atomic_counts(const int *in, int *sum, int *per)
{
    __shared__ int s;
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0)
        s = 0;
    __syncthreads();
    int v = in[t];
    atomicAdd(&s, v);
    atomicAdd(&per[t], 1);
    __syncthreads();
    if (threadIdx.x == 0)
        atomicAdd(sum, s);
}

extern "C" __global__ void warp_ops(const int *in, int *out)
{
    unsigned t = threadIdx.x, lane = t % 32;
    int v = in[t], s = v;
    for (int o = 16; o > 0; o /= 2)
        s += __shfl_down_sync(0xffffffff, s, o);
    int x = v;
    for (int o = 1; o < 32; o *= 2)
        x += __shfl_xor_sync(0xffffffff, x, o);
    out[5 * t + 0] = s;          // lane 0: the warp's sum
    out[5 * t + 1] = x;          // every lane: the warp's sum
    out[5 * t + 2] = (int)__ballot_sync(0xffffffff, v & 1);
    out[5 * t + 3] = __reduce_add_sync(0xffffffff, v);
    out[5 * t + 4] = __shfl_sync(0xffffffff, v, (lane + 1) % 32);
}

// --- planted for the checks ------------------------------------------------
extern "C" __global__ void shared_race(const int *in, int *out)
{
    __shared__ int s[256];
    s[threadIdx.x] = in[threadIdx.x];
    // no __syncthreads(): thread t reads what thread t + 64 (another warp) writes
    out[threadIdx.x] = s[(threadIdx.x + 64) % 256];
}

extern "C" __global__ void volatile_warp(const int *in, int *out)
{
    __shared__ int s[64];
    unsigned t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    if (t < 32) {
        volatile int *v = s;
        v[t] += v[t + 32];
        v[t] += v[t + 16];
        v[t] += v[t + 8];
    }
    if (t == 0)
        out[0] = s[0];
}

extern "C" __global__ void syncwarp_fixed(const int *in, int *out)
{
    __shared__ int s[64];
    unsigned t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    if (t < 32) {
        int v = s[t] + s[t + 32];
        __syncwarp();
        s[t] = v;
        __syncwarp();
        v += s[t + 16];
        __syncwarp();
        s[t] = v;
        __syncwarp();
    }
    if (t == 0)
        out[0] = s[0];
}

extern "C" __global__ void divergent_barrier(int *out)
{
    if (threadIdx.x % 2)
        __syncthreads();
    out[threadIdx.x] = 1;
}

extern "C" __global__ void bad_syncwarp(int *out)
{
    if (threadIdx.x < 16)
        __syncwarp(0xffffffff);
    out[threadIdx.x] = 1;
}

/* Shared atomics whose lanes do not share an address: each lane into its own slot, and one
 * lane per warp into one word (the lanes of a request that hit one address take turns). */
extern "C" __global__ void shared_atom_spread(const int *in, int *out)
{
    __shared__ int slots[32], one;
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x < 32)
        slots[threadIdx.x] = 0;
    if (threadIdx.x == 0)
        one = 0;
    __syncthreads();
    atomicAdd(&slots[threadIdx.x % 32], in[t]);
    if (threadIdx.x % 32 == 0)
        atomicAdd(&one, 1);
    __syncthreads();
    if (threadIdx.x < 32)
        out[blockIdx.x * 33 + threadIdx.x] = slots[threadIdx.x];
    if (threadIdx.x == 0)
        out[blockIdx.x * 33 + 32] = one;
}

extern "C" __global__ void shared_oob(int *out, int k)
{
    __shared__ int s[32];
    s[threadIdx.x] = 1;
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x + k];
}

extern "C" __global__ void global_oob(int *out, unsigned n)
{
    out[threadIdx.x + n] = 1;
}

// --- calls: recursion past the GPU's 1 KiB stack per thread ------------------------------------
__device__ __noinline__ int depth(volatile int *p, int n)
{
    if (n == 0)
        return *p;
    int r = depth(p, n - 1);
    *p = r;
    return r + 1;
}

extern "C" __global__ void recurse(int *out, int n)
{
    out[threadIdx.x] = depth(out + threadIdx.x, n);
}

// --- printf and assert --------------------------------------------------------------------
#include <cassert>
#include <cstdio>

// every argument kind of CUDA's printf ABI: int, unsigned, float (as double), string, long,
// char, hex, pointer-sized, %%; threads 0..2 of each block
extern "C" __global__ void prints(const int *in)
{
    unsigned t = threadIdx.x;
    if (t < 3)
        printf("t=%u v=%d f=%.3f s=%s l=%ld c=%c x=%08x %5.1e %% end\n", t, in[t], in[t] * 0.5f,
               "hey", (long)t * -1000000000000L, 'a' + (int)t, (unsigned)in[t], (double)in[t]);
    if (t == 40)
        printf("block %d, two\nlines\n", blockIdx.x);
}

// every thread prints a line of 48 characters: past LAB_SIM_PRINTF_MAX
extern "C" __global__ void prints_a_lot(void)
{
    printf("%04u:%04u abcdefghijklmnopqrstuvwxyz0123456789\n", blockIdx.x, threadIdx.x);
}

extern "C" __global__ void asserts(const int *in, int *out)
{
    unsigned t = threadIdx.x;
    assert(in[t] != 77);
    out[t] = in[t];
}

// --- the GPU the simulator stands for (an H100): %smid, %nsmid, %warpid, %nwarpid, %laneid,
// %gridid ------------------------------------------------------------------------------------
extern "C" __global__ void gpu_ids(unsigned *out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x, smid, nsmid, warpid, nwarpid, laneid;
    unsigned long long gridid;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    asm volatile("mov.u32 %0, %%nsmid;" : "=r"(nsmid));
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(warpid));
    asm volatile("mov.u32 %0, %%nwarpid;" : "=r"(nwarpid));
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(laneid));
    asm volatile("mov.u64 %0, %%gridid;" : "=l"(gridid));
    out[7 * i] = smid;
    out[7 * i + 1] = nsmid;
    out[7 * i + 2] = warpid;
    out[7 * i + 3] = nwarpid;
    out[7 * i + 4] = laneid;
    out[7 * i + 5] = (unsigned)gridid;
    out[7 * i + 6] = (unsigned)(gridid >> 32);
}

// --- malloc and free: the device heap (8 MiB) ------------------------------------------------
extern "C" __global__ void heap_blocks(int *out, unsigned bytes)
{
    int *p = (int *)malloc(bytes);
    if (!p) {
        out[threadIdx.x] = -1;
        return;
    }
    for (unsigned i = 0; i < bytes / sizeof(int); i++)
        p[i] = (int)(i + threadIdx.x);
    out[threadIdx.x] = p[bytes / sizeof(int) - 1];
    free(p);
}

extern "C" __global__ void heap_free_twice(int *out)
{
    int *p = (int *)malloc(64);
    free(p);
    free(p);
    out[threadIdx.x] = 1;
}

// the loads' latencies (gld_rounds): four independent loads and then their sum are one per warp;
// a chain of dependent loads (each index the value the last load brought) is one per link
extern "C" __global__ void loads_together(const int *in, int *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x, n = gridDim.x * blockDim.x;
    out[t] = in[t] + in[t + n] + in[t + 2 * n] + in[t + 3 * n];
}

extern "C" __global__ void loads_chained(const int *next, int *out, int links)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll 1
    for (int k = 0; k < links; k++)
        i = next[i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = i;
}

/* The loads' latencies across a barrier: warp 0 follows a chain of three loads, warp 1 none;
 * after the barrier each warp loads once more.  Also an integer remainder by a variable. */
extern "C" __global__ void barrier_rounds(const int *next, int *out, int k)
{
    unsigned t = threadIdx.x;
    int i = (int)t;
    if (t < 32)
        for (int c = 0; c < 3; c++)
            i = next[i];
    __syncthreads();
    out[t] = next[i] % k;
}

/* Four loads each behind its own bound check, unrolled: ptxas predicates the checks, and the
 * four loads are in flight together. */
extern "C" __global__ void guarded_loads(const int *in, int *out, unsigned n)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    int s = 0;
#pragma unroll
    for (unsigned k = 0; k < 4; k++)
        if (t + k * 64 < n)
            s += in[t + k * 64];
    out[t] = s;
}

// review D2: a thread id that leaves out a dimension; threads of another warp store to the same
// word and nobody reads it: a duplicate index, not a missing barrier
extern "C" __global__ void duplicate_index(const int *in, int *out)
{
    (void)in;
    out[threadIdx.x % 64] = threadIdx.x;
}

// the same words stored by two warps, but the second reads the word first (a += of another
// warp's word): a race that a barrier orders
extern "C" __global__ void global_read_modify_race(const int *in, int *out)
{
    if (threadIdx.x < 64)
        out[threadIdx.x] = in[threadIdx.x];
    else
        out[threadIdx.x % 64] += in[threadIdx.x];
}
