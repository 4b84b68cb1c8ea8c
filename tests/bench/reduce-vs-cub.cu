// reduce-vs-cub.cu - the reduction chapter's last step against NVIDIA's CUB,
// measured in the same run, on the same buffers, with the same method as the
// lab's timing (common/timing.c): L2 flushed by reading a buffer several
// times its size before every sample, CUDA events around the launch,
// alternating order, median of many samples.
//
//   make bench-reduce    (builds build/bench/reduce-vs-cub, runs it, writes docs/bench/reduce.md)
//
// Output: a Markdown table on stdout.  Exit status 1 if a sum is wrong.  tests/gpu/loop-bench.sh runs
// it in the GPU call of issue 36 (docs/bench/reduce.md lists what each variant tries).
#ifndef REDUCE_VARIANTS_ONLY // tests/e2e/test-reduce-variants-sim.sh: the kernels alone, on the simulator
#include <cub/device/device_reduce.cuh>
#endif

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "common/common.h"
#include "solutions/reduction/single-pass.cu"

static const int kSamples = 300;

__global__ void flush_read(const int4 *p, size_t n, int *sink) {
    int4 acc = make_int4(0, 0, 0, 0);
    for (size_t i = lab_grid_first(); i < n; i += lab_grid_stride()) {
        int4 v = p[i];
        acc.x ^= v.x; acc.y ^= v.y; acc.z ^= v.z; acc.w ^= v.w;
    }
    if ((acc.x ^ acc.y ^ acc.z ^ acc.w) == 0x7fffffff) *sink = 1;
}

// Variants of the single pass (issue 22: what each direction gives), beside the reference: more
// int4 loads in flight per thread, cache hints on the loads (the streaming ld.global.cs; the
// read-only path without L1 allocation and a 256-byte L2 prefetch; the same with an L2 evict-first
// cache policy),
// and the grid: 1, 2 or 4 blocks per SM.  The same contract as the reference: any n, any grid,
// g_odata[0] zeroed before each run.
enum Hint { PLAIN, STREAM, NC_256B, NC_256B_EVICT_FIRST };

template <Hint H> __device__ __forceinline__ int4 load4(const int4 *p) {
    int4 v;
    if (H == STREAM)
        v = __ldcs(p);
    else if (H == NC_256B)
        asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.s32 {%0,%1,%2,%3}, [%4];"
                     : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
    else if (H == NC_256B_EVICT_FIRST) { // sm_90 takes L2 eviction priority as a cache policy
        unsigned long long policy;
        asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
        asm volatile("ld.global.nc.L1::no_allocate.L2::cache_hint.L2::256B.v4.s32 {%0,%1,%2,%3}, [%4], %5;"
                     : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p), "l"(policy));
    }
    else
        v = *p;
    return v;
}

template <int LOADS, Hint H> __global__ void reduceVariant(int *g_idata, int *g_odata, unsigned int n) {
    __shared__ int warp_sums[MAX_WARPS];
    const unsigned int tid = threadIdx.x;
    const size_t threads = (size_t)gridDim.x * blockDim.x;
    const size_t first = (size_t)blockIdx.x * blockDim.x + tid;
    const size_t quads = n / 4;
    const int4 *in4 = reinterpret_cast<const int4 *>(g_idata);
    int s[LOADS] = {};
    size_t i = first;

    for (; i + (LOADS - 1) * threads < quads; i += LOADS * threads) {
        int4 v[LOADS];
#pragma unroll
        for (int k = 0; k < LOADS; k++) v[k] = load4<H>(in4 + i + k * threads);
#pragma unroll
        for (int k = 0; k < LOADS; k++) s[k] += (v[k].x + v[k].y) + (v[k].z + v[k].w);
    }
    for (; i < quads; i += threads) {
        int4 a = load4<H>(in4 + i);
        s[0] += (a.x + a.y) + (a.z + a.w);
    }
    if (first < n - quads * 4) s[0] += g_idata[quads * 4 + first];
    int v = 0;
#pragma unroll
    for (int k = 0; k < LOADS; k++) v += s[k];
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffff, v, offset);
    if (tid % 32 == 0) warp_sums[tid / 32] = v;
    __syncthreads();
    if (tid < 32) {
        v = tid < blockDim.x / 32 ? warp_sums[tid] : 0;
        for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffff, v, offset);
        if (tid == 0) atomicAdd(g_odata, v);
    }
}

// The tail: a launch's blocks do not all end together (an SM that gets less bandwidth, a grid whose
// last round is partial), and the kernel lasts as long as its slowest block.  These variants hand
// out the work at run time instead: a warp takes a ticket (a slice of 32 x LOADS x ROUNDS int4)
// from a counter and takes the next one while it sums the current, so a fast SM simply takes more
// slices.  The counter lives in the module and the last block to finish sets it back to 0, so the
// contract stays the exercise's (only g_odata[0] is zeroed between runs).
__device__ unsigned int g_ticket = 0; // the next slice (or bulk chunk) to hand out
__device__ unsigned int g_done = 0;   // blocks finished; the last one resets both

// After the block's last use of g_ticket (the caller has passed a __syncthreads): the last block
// of the launch sets the counters back for the next launch.
__device__ __forceinline__ void reset_tickets_if_last() {
    __threadfence();
    if (atomicAdd(&g_done, 1) == gridDim.x - 1) {
        g_ticket = 0;
        g_done = 0;
    }
}

// The block's sum of v, one atomicAdd into *out; the tickets set back if `tickets`.
__device__ __forceinline__ void block_sum_add(int v, int *out, bool tickets) {
    __shared__ int warp_sums[MAX_WARPS];
    const unsigned int tid = threadIdx.x;
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffff, v, offset);
    if (tid % 32 == 0) warp_sums[tid / 32] = v;
    __syncthreads();
    if (tid < 32) {
        v = tid < blockDim.x / 32 ? warp_sums[tid] : 0;
        for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffff, v, offset);
        if (tid == 0) {
            atomicAdd(out, v);
            if (tickets) reset_tickets_if_last();
        }
    }
}

template <int LOADS, int ROUNDS> __global__ void reduceTickets(int *g_idata, int *g_odata, unsigned int n) {
    const unsigned int lane = threadIdx.x % 32;
    const size_t quads = n / 4;
    const size_t per = 32 * LOADS * ROUNDS; // int4 per ticket
    const size_t slices = (quads + per - 1) / per;
    const int4 *in4 = reinterpret_cast<const int4 *>(g_idata);
    int s[LOADS] = {};
    unsigned int t = lane == 0 ? atomicAdd(&g_ticket, 1) : 0;
    t = __shfl_sync(0xffffffff, t, 0);
    while (t < slices) {
        const unsigned int next = lane == 0 ? atomicAdd(&g_ticket, 1) : 0; // in flight meanwhile
        const size_t base = (size_t)t * per;
        if (base + per <= quads) {
#pragma unroll
            for (int r = 0; r < ROUNDS; r++) {
                int4 v[LOADS];
#pragma unroll
                for (int k = 0; k < LOADS; k++) v[k] = in4[base + (r * LOADS + k) * 32 + lane];
#pragma unroll
                for (int k = 0; k < LOADS; k++) s[k] += (v[k].x + v[k].y) + (v[k].z + v[k].w);
            }
        } else {
            for (size_t q = base + lane; q < quads; q += 32) {
                int4 a = in4[q];
                s[0] += (a.x + a.y) + (a.z + a.w);
            }
        }
        t = __shfl_sync(0xffffffff, next, 0);
    }
    const size_t first = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (first < n - quads * 4) s[0] += g_idata[quads * 4 + first];
    int v = 0;
#pragma unroll
    for (int k = 0; k < LOADS; k++) v += s[k];
    block_sum_add(v, g_odata, true);
}

// TMA bulk loads (cp.async.bulk, sm_90): one thread of the block asks the copy engine for whole
// chunks of CHUNK bytes, global to shared memory, STAGES chunks in flight, each stage with its
// mbarrier that completes when the chunk's bytes have landed; every thread sums the landed chunk
// from shared memory, and the stage is refilled once all have read it.  Chunks go to the blocks in
// turn (block b takes b, b + grid, ...) or, with TICKETS, from the ticket counter.
__device__ __forceinline__ unsigned smem_addr(const void *p) {
    return (unsigned)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void mbar_init(unsigned long long *bar, unsigned count) {
    asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count) : "memory");
}

// Thread 0: the stage's bytes to expect, then the copy that delivers them.
__device__ __forceinline__ void bulk_load(void *dst, const void *src, unsigned bytes, unsigned long long *bar) {
    asm volatile("{ .reg .b64 state; mbarrier.arrive.expect_tx.shared::cta.b64 state, [%0], %1; }" ::"r"(
                     smem_addr(bar)),
                 "r"(bytes)
                 : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                     smem_addr(dst)),
                 "l"(src), "r"(bytes), "r"(smem_addr(bar))
                 : "memory");
}

__device__ __forceinline__ void mbar_wait(unsigned long long *bar, unsigned phase) {
    unsigned done;
    do {
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                     : "=r"(done)
                     : "r"(smem_addr(bar)), "r"(phase)
                     : "memory");
    } while (!done);
}

template <int STAGES, int CHUNK, bool TICKETS>
__global__ void reduceBulk(int *g_idata, int *g_odata, unsigned int n) {
#ifdef BULK_STATIC_SHARED // kernel-run launches with no dynamic shared memory
    __shared__ __align__(128) int4 stage_buf[STAGES * CHUNK / 16];
#else
    extern __shared__ __align__(128) int4 stage_buf[]; // STAGES * CHUNK bytes, dynamic
#endif
    __shared__ __align__(8) unsigned long long bar[STAGES];
    __shared__ long long chunk_of[STAGES]; // the chunk in each stage; -1: none (the end)
    const unsigned int tid = threadIdx.x;
    const size_t quads = n / 4;
    const size_t cq = CHUNK / 16; // int4 per chunk
    const long long chunks = (long long)((quads + cq - 1) / cq);
    const int4 *in4 = reinterpret_cast<const int4 *>(g_idata);
    long long turn = blockIdx.x; // without tickets: the block's next chunk

    auto fill = [&](int s) { // thread 0: the next chunk into stage s, or the end
        long long c;
        if (TICKETS)
            c = atomicAdd(&g_ticket, 1);
        else {
            c = turn;
            turn += gridDim.x;
        }
        if (c >= chunks) {
            chunk_of[s] = -1;
            return;
        }
        chunk_of[s] = c;
        const size_t q0 = (size_t)c * cq;
        const size_t nq = quads - q0 < cq ? quads - q0 : cq;
        bulk_load(stage_buf + s * cq, in4 + q0, (unsigned)(nq * 16), &bar[s]);
    };
    if (tid == 0) {
        for (int s = 0; s < STAGES; s++) mbar_init(&bar[s], 1);
        // the barriers initialised, visible to the copy engine (the async proxy): the CUDA
        // programming guide's pattern for one block
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        for (int s = 0; s < STAGES; s++) fill(s);
    }
    __syncthreads();

    int sum0 = 0, sum1 = 0;
    for (unsigned j = 0;; j++) {
        const int s = j % STAGES;
        const long long c = chunk_of[s];
        if (c < 0) break; // chunks are taken in order, so every later stage is empty too
        mbar_wait(&bar[s], (j / STAGES) & 1);
        const size_t q0 = (size_t)c * cq;
        const unsigned nq = (unsigned)(quads - q0 < cq ? quads - q0 : cq);
        const int4 *buf = stage_buf + s * cq;
        unsigned k = tid;
        for (; k + blockDim.x < nq; k += 2 * blockDim.x) {
            int4 a = buf[k], b = buf[k + blockDim.x];
            sum0 += (a.x + a.y) + (a.z + a.w);
            sum1 += (b.x + b.y) + (b.z + b.w);
        }
        if (k < nq) {
            int4 a = buf[k];
            sum0 += (a.x + a.y) + (a.z + a.w);
        }
        __syncthreads(); // all have read stage s (and chunk_of[s])
        if (tid == 0) {
            asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); // generic reads before the async write
            fill(s);
        }
    }
    const size_t first = (size_t)blockIdx.x * blockDim.x + tid;
    if (first < n - quads * 4) sum1 += g_idata[quads * 4 + first];
    block_sum_add(sum0 + sum1, g_odata, TICKETS);
}

#ifndef REDUCE_VARIANTS_ONLY
typedef void (*reduce_fn)(int *, int *, unsigned int);

struct Kernel {
    const char *name;
    reduce_fn fn;      // nullptr: CUB
    int block, per_sm; // the launch: per_sm blocks of `block` threads per SM
    int smem;          // dynamic shared memory per block, bytes
};

static const Kernel kKernels[] = {
    {"reduceSinglePass (reference)", reduceSinglePass, 512, 4, 0},
    {"cub::DeviceReduce::Sum", nullptr, 0, 0, 0},
    {"4 loads, 1 block of 1024/SM (issue 22's best)", reduceVariant<4, PLAIN>, 1024, 1, 0},
    {"8 loads in flight", reduceVariant<8, PLAIN>, 512, 4, 0},
    {"tickets of 4x4 int4/lane, 4 blocks of 512/SM", reduceTickets<4, 4>, 512, 4, 0},
    {"tickets of 4x8 int4/lane, 4 blocks of 512/SM", reduceTickets<4, 8>, 512, 4, 0},
    {"tickets of 4x4 int4/lane, 1 block of 1024/SM", reduceTickets<4, 4>, 1024, 1, 0},
    {"bulk 2x16 KiB, 4 blocks of 512/SM", reduceBulk<2, 16384, false>, 512, 4, 2 * 16384},
    {"bulk 3x16 KiB, 4 blocks of 512/SM", reduceBulk<3, 16384, false>, 512, 4, 3 * 16384},
    {"bulk 4x16 KiB, 2 blocks of 512/SM", reduceBulk<4, 16384, false>, 512, 2, 4 * 16384},
    {"bulk 8x16 KiB, 1 block of 512/SM", reduceBulk<8, 16384, false>, 512, 1, 8 * 16384},
    {"bulk 4x32 KiB, 1 block of 1024/SM", reduceBulk<4, 32768, false>, 1024, 1, 4 * 32768},
    {"bulk 6x32 KiB, 1 block of 1024/SM", reduceBulk<6, 32768, false>, 1024, 1, 6 * 32768},
    {"bulk 3x16 KiB + tickets, 4 blocks of 512/SM", reduceBulk<3, 16384, true>, 512, 4, 3 * 16384},
    {"bulk 4x32 KiB + tickets, 1 block of 1024/SM", reduceBulk<4, 32768, true>, 1024, 1, 4 * 32768},
};
static const int kCount = sizeof(kKernels) / sizeof(kKernels[0]);

struct Bench {
    int *in, *out, *sink;
    int4 *flush;
    size_t flush_quads;
    void *cub_temp;
    size_t cub_temp_bytes;
    int sms;
    cudaEvent_t start, stop;
};

static void flush_l2(Bench &b) { flush_read<<<b.sms * 4, 512>>>(b.flush, b.flush_quads, b.sink); }

// The launch alone; a single pass's g_odata[0] is zeroed before, untimed.
static void launch(Bench &b, int k, unsigned n) {
    const Kernel &K = kKernels[k];
    if (K.fn)
        K.fn<<<b.sms * K.per_sm, K.block, K.smem>>>(b.in, b.out, n);
    else
        CHECK(cub::DeviceReduce::Sum(b.cub_temp, b.cub_temp_bytes, b.in, b.out, (int)n));
}

static int result(Bench &b, int k, unsigned n) {
    int got;
    CHECK(cudaMemset(b.out, 0, sizeof(int)));
    launch(b, k, n);
    const cudaError_t e = cudaGetLastError(); // a launch refused: its row says WRONG, and why here
    if (e != cudaSuccess) fprintf(stderr, "%s: %s\n", kKernels[k].name, cudaGetErrorString(e));
    CHECK(cudaMemcpy(&got, b.out, sizeof(int), cudaMemcpyDeviceToHost));
    return got;
}

static float time_one(Bench &b, int k, unsigned n) {
    float ms;
    CHECK(cudaMemsetAsync(b.out, 0, sizeof(int)));
    flush_l2(b);
    CHECK(cudaEventRecord(b.start));
    launch(b, k, n);
    CHECK(cudaEventRecord(b.stop));
    CHECK(cudaEventSynchronize(b.stop));
    CHECK(cudaEventElapsedTime(&ms, b.start, b.stop));
    return ms * 1000.0f;
}

static float median(std::vector<float> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

int main() {
    const unsigned sizes[] = {1u << 24, 1u << 28, 1u << 30};
    const unsigned max_n = 1u << 30;
    Bench b;
    cudaDeviceProp prop;
    int mem_khz, bus_bits, ok = 1;

    CHECK(cudaGetDeviceProperties(&prop, 0));
    CHECK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, 0));
    CHECK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0));
    const double peak_gbps = 2.0 * mem_khz * 1e3 * (bus_bits / 8) / 1e9;
    b.sms = prop.multiProcessorCount;
    b.flush_quads = (size_t)prop.l2CacheSize * 5 / 16;
    CHECK(cudaMalloc(&b.in, (size_t)max_n * sizeof(int)));
    CHECK(cudaMalloc(&b.out, sizeof(int)));
    CHECK(cudaMalloc(&b.sink, sizeof(int)));
    CHECK(cudaMalloc(&b.flush, b.flush_quads * sizeof(int4)));
    CHECK(cudaMemset(b.flush, 1, b.flush_quads * sizeof(int4)));
    CHECK(cudaEventCreate(&b.start));
    CHECK(cudaEventCreate(&b.stop));
    for (const Kernel &K : kKernels) // past 48 KiB of static and dynamic shared memory only when asked
        if (K.smem)
            CHECK(cudaFuncSetAttribute(K.fn, cudaFuncAttributeMaxDynamicSharedMemorySize, K.smem));
    b.cub_temp = nullptr;
    CHECK(cub::DeviceReduce::Sum(b.cub_temp, b.cub_temp_bytes, b.in, b.out, (int)max_n));
    CHECK(cudaMalloc(&b.cub_temp, b.cub_temp_bytes));

    std::vector<int> host(max_n);
    srand(12345);
    for (auto &v : host) v = rand() & 0xFF;
    CHECK(cudaMemcpy(b.in, host.data(), (size_t)max_n * sizeof(int), cudaMemcpyHostToDevice));

    printf("GPU: %s, %d SMs, theoretical %.0f GB/s; single pass %d x %d; %d samples each, "
           "interleaved in rotating order, L2 flushed by a %zu MiB read before each\n\n",
           prop.name, b.sms, peak_gbps, b.sms * kKernels[0].per_sm, kKernels[0].block, kSamples,
           b.flush_quads * 16 >> 20);
    printf("| n | kernel | median µs | min µs | GB/s | %% of peak | vs CUB | sum |\n");
    printf("|---|---|---|---|---|---|---|---|\n");
    for (unsigned n : sizes) {
        long long expect = 0;
        for (unsigned i = 0; i < n; i++) expect += host[i];
        std::vector<std::vector<float>> t(kCount);
        for (int s = 0; s < 3; s++) // warm-up
            for (int k = 0; k < kCount; k++) launch(b, k, n);
        for (int s = 0; s < kSamples; s++) // rotating order
            for (int j = 0; j < kCount; j++) {
                const int k = (s + j) % kCount;
                t[k].push_back(time_one(b, k, n));
            }
        const int want = (int)(unsigned)expect;
        const double bytes = (double)n * sizeof(int);
        const float mcb = median(t[1]);
        for (int k = 0; k < kCount; k++) {
            const float m = median(t[k]);
            const int got = result(b, k, n);
            printf("| 2^%d | %s | %.1f | %.1f | %.0f | %.1f | %.3fx | %s |\n", __builtin_ctz(n),
                   kKernels[k].name, m, *std::min_element(t[k].begin(), t[k].end()),
                   bytes / m / 1e3, 100.0 * bytes / m / 1e3 / peak_gbps, mcb / m,
                   got == want ? "ok" : "WRONG");
            ok &= got == want;
        }
    }
    return ok ? 0 : 1;
}
#endif // REDUCE_VARIANTS_ONLY
