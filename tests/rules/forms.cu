// tests/rules/forms.cu - every form of the constraint classes (lab/build/rules.c), as a student
// writes it, built by the Makefile with the lab's flags (nvcc -ptx -arch=sm_90 -O3 -lineinfo).
// A line marked "// rule: CLASS: WORDS" must be reported by "forbid CLASS" as WORDS at this
// file's line (tests/test-constraints.c); "// rule: CLASS!: ..." marks what the class must NOT
// report there.  Each kernel writes what it computes, so that nvcc keeps it.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda/atomic>
namespace cg = cooperative_groups;

__global__ void atomicsGlobal(int *p, float *f, unsigned long long *q) {
    int v = p[threadIdx.x];
    atomicAdd(p, v);                                          // rule: atomics: atomicAdd
    int old = atomicCAS(p + 1, 0, v);                         // rule: atomics: atomicCAS
    old += atomicExch(p + 2, v);                              // rule: atomics: atomicExch
    atomicAdd(f, 1.0f);                                       // rule: atomics: atomicAdd
    old += atomicAdd_block(p + 3, v);                         // rule: atomics: atomicAdd_block
    old += atomicMax(p + 4, v);                               // rule: atomics: atomicMax
    atomicAdd(q, 1ull);                                       // rule: atomics: atomicAdd
    cuda::atomic_ref<int, cuda::thread_scope_device> r(p[5]);
    old += r.fetch_add(v);                                    // rule: atomics: cuda::std::fetch_add
    asm volatile("red.global.add.u32 [%0], %1;" :: "l"(p + 6), "r"(v) : "memory"); // rule: atomics: inline PTX 'red.global.add.u32
    p[threadIdx.x + 64] = old;                                // rule: atomics!: nothing
}

__global__ void atomicsShared(int *p) {
    __shared__ int sum;
    __shared__ unsigned char stage[64];
    if (threadIdx.x == 0) sum = 0;
    __syncthreads();
    atomicAdd(&sum, p[threadIdx.x]);                          // rule: shared-atomics: atomicAdd
    unsigned a = (unsigned)__cvta_generic_to_shared(&sum);
    asm volatile("red.shared.add.s32 [%0], %1;" :: "r"(a), "r"(p[threadIdx.x]) : "memory"); // rule: shared-atomics: inline PTX 'red.shared.add.s32
    asm volatile("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32 [%0], [%1], 16, [%2];" :: "r"(a), "r"(a), "r"(a) : "memory"); // rule: shared-atomics: inline PTX 'cp.reduce.async.bulk.shared::cluster
    asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%0], [%1], 16;" :: "l"(p), "r"((unsigned)__cvta_generic_to_shared(stage)) : "memory"); // rule: shared-atomics!: cp.reduce // rule: atomics: inline PTX 'cp.reduce.async.bulk.global
    asm volatile("multimem.red.relaxed.sys.global.add.u32 [%0], %1;" :: "l"(p + 8), "r"(1) : "memory"); // rule: atomics: inline PTX 'multimem.red
    __syncthreads();
    if (threadIdx.x == 0) p[0] = sum;
}

__global__ void warpCollectives(int *p) {
    int v = p[threadIdx.x];
    v += __shfl_sync(0xffffffff, v, 3);                       // rule: warp-collectives: __shfl_sync // rule: warp-reductions!: __shfl_sync
    v += __shfl_up_sync(0xffffffff, v, 1);                    // rule: warp-collectives: __shfl_up_sync
    v += __shfl_down_sync(0xffffffff, v, 1);                  // rule: warp-collectives: __shfl_down_sync
    v += __shfl_xor_sync(0xffffffff, v, 1);                   // rule: warp-collectives: __shfl_xor_sync
    v += __reduce_add_sync(0xffffffff, v);                    // rule: warp-collectives: __reduce_add_sync // rule: warp-reductions: __reduce_add_sync
    v += __reduce_max_sync(0xffffffff, (unsigned)v);          // rule: warp-collectives: __reduce_max_sync // rule: warp-reductions: __reduce_max_sync
    v += __ballot_sync(0xffffffff, v > 3);                    // rule: warp-collectives: __ballot_sync
    v += __all_sync(0xffffffff, v);                           // rule: warp-collectives: __all_sync
    v += __any_sync(0xffffffff, v > 9);                       // rule: warp-collectives: __any_sync
    v += __match_any_sync(0xffffffff, v);                     // rule: warp-collectives: __match_any_sync
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
    v += tile.shfl_down(v, 2);                                // rule: warp-collectives: cooperative_groups::shfl_down
    v += cg::reduce(tile, v, cg::plus<int>());                // rule: warp-collectives: cooperative_groups::reduce // rule: warp-reductions: cooperative_groups::reduce
    unsigned r;
    asm volatile("redux.sync.add.u32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(v)); // rule: warp-collectives: inline PTX 'redux.sync.add.u32 // rule: warp-reductions: inline PTX 'redux.sync.add.u32
    __syncwarp();                                             // rule: warp-collectives!: __syncwarp // rule: warp-sync: __syncwarp
    tile.sync();                                              // rule: warp-sync: cooperative_groups::sync
    p[threadIdx.x] = v + (int)r;
}

__global__ void timers(long long *p) {
    long long t = clock64();                                  // rule: timers: clock64() or clock()
    unsigned c = clock();                                     // rule: timers: clock64() or clock()
    unsigned long long g;
    unsigned lo, hi;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g));      // rule: timers: %globaltimer
    asm volatile("mov.u32 %0, %%globaltimer_lo;" : "=r"(lo));  // rule: timers: %globaltimer_lo
    asm volatile("mov.u32 %0, %%clock_hi;" : "=r"(hi));        // rule: timers: clock()
    p[threadIdx.x] = t + c + (long long)g + hi + lo;
}

__global__ void forLoop(int *p, unsigned int n) {
    int s = 0;
    for (unsigned int i = threadIdx.x; i < n; i += blockDim.x) // rule: loops: a branch back
        s += p[i];
    p[threadIdx.x] = s;
}

// a loop written as a recursion nvcc keeps (two calls, no tail call to turn into a jump)
__device__ __noinline__ int sumRange(const int *p, unsigned int lo, unsigned int hi) {
    if (hi - lo == 1) return p[lo];
    unsigned int mid = lo + (hi - lo) / 2;
    return sumRange(p, lo, mid) + sumRange(p, mid, hi);       // rule: loops: the call of sumRange
}

__global__ void recursion(int *p, unsigned int n) {
    if (threadIdx.x == 0 && n > 0) p[0] = sumRange(p, 0, n);  // rule: loops!: sumRange
}

// a function called twice is no loop
__device__ __noinline__ int twice(int v) { return v * 2; }
__global__ void notRecursion(int *p) {
    p[threadIdx.x] = twice(p[threadIdx.x]) + twice(p[threadIdx.x + 1]); // rule: loops!: twice
}
