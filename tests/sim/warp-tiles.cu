// tests/sim/warp-tiles.cu - correct kernels that the simulator's checks once accused (issue 32):
// cooperative groups' tiles of 16 and 8 lanes, whose *.sync operations each half (or quarter)
// of a warp runs with a mask of its own (0x0000ffff, 0xffff0000, ...); cg::reduce on a tile
// (redux.sync with that mask); __reduce_add_sync with a half mask; and counters that a spin
// lock built from atomics guards, in global memory (taken by atomicCAS, given back by
// atomicExch) and in shared memory (given back by a plain store after a fence).
//
// Every kernel is `(const int *in, int *out, unsigned n)`, the shape kernel-run launches
// generically (in: ints 0..255, 8 * n + 64 of them; out as many, filled the same way):
// tests/test-sim-hazards.c checks each against a computation on the host, with no finding;
// tests/sim-corpus.sh lists this file, so tests/gpu/record-sim.sh records a GPU's results and
// tests/e2e/test-sim-diff.sh compares them with the simulator's.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

// The sum of each tile of 16 (8) threads by shuffles down the tile, written by its first lane.
template <unsigned Tile>
__device__ void tile_shfl_sum(const int *in, int *out, unsigned n)
{
    cg::thread_block_tile<Tile> tile = cg::tiled_partition<Tile>(cg::this_thread_block());
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    for (unsigned offset = Tile / 2; offset > 0; offset /= 2)
        v += tile.shfl_down(v, offset);
    tile.sync();
    if (tile.thread_rank() == 0 && i < n)
        out[i / Tile] = v;
}

extern "C" __global__ void tile16_shfl_sum(const int *in, int *out, unsigned n)
{
    tile_shfl_sum<16>(in, out, n);
}

extern "C" __global__ void tile8_shfl_sum(const int *in, int *out, unsigned n)
{
    tile_shfl_sum<8>(in, out, n);
}

// cg::reduce over a tile of 16 (8): redux.sync with each tile's mask; every lane gets its
// tile's sum, and a vote of the tile (its ballot) beside it.
template <unsigned Tile>
__device__ void tile_cg_reduce(const int *in, int *out, unsigned n)
{
    cg::thread_block_tile<Tile> tile = cg::tiled_partition<Tile>(cg::this_thread_block());
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    int sum = cg::reduce(tile, v, cg::plus<int>());
    unsigned odd = tile.ballot(v & 1);
    if (i < n)
        out[i] = sum * 1000 + (int)odd;
}

extern "C" __global__ void tile16_cg_reduce(const int *in, int *out, unsigned n)
{
    tile_cg_reduce<16>(in, out, n);
}

extern "C" __global__ void tile8_cg_reduce(const int *in, int *out, unsigned n)
{
    tile_cg_reduce<8>(in, out, n);
}

// __reduce_add_sync with a half mask: each half of the warp sums its own 16 lanes.
extern "C" __global__ void redux_half_masks(const int *in, int *out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32;
    int v = i < n ? in[i] : 0;
    unsigned mask = lane < 16 ? 0x0000ffffu : 0xffff0000u;
    int sum = __reduce_add_sync(mask, v);
    if (i < n)
        out[i] = sum;
}

__device__ int global_lock;

// Each warp's sum, added to its block's counter out[blockIdx.x] by the warp's first lane under
// one spin lock of the whole grid: taken by atomicCAS, given back by atomicExch, with a fence
// on either side (so that the counter's plain load sees the last holder's store).  The loop is
// the form that cannot deadlock when a warp's lanes run in lockstep.
extern "C" __global__ void spin_lock_global(const int *in, int *out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    if (threadIdx.x % 32 == 0) {
        bool done = false;
        while (!done) {
            if (atomicCAS(&global_lock, 0, 1) == 0) {
                __threadfence();
                out[blockIdx.x] += v;
                __threadfence();
                atomicExch(&global_lock, 0);
                done = true;
            }
        }
    }
}

// The same in shared memory, every lane taking the block's lock in turn, which it gives back by
// a volatile store after __threadfence_block(); the block's first thread writes the total.
extern "C" __global__ void spin_lock_shared(const int *in, int *out, unsigned n)
{
    __shared__ int lock, total;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    if (threadIdx.x == 0) {
        lock = 0;
        total = 0;
    }
    __syncthreads();
    bool done = false;
    while (!done) {
        if (atomicCAS(&lock, 0, 1) == 0) {
            __threadfence_block();
            total += v;
            __threadfence_block();
            *(volatile int *)&lock = 0;
            done = true;
        }
    }
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = total;
}
