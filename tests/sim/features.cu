// tests/sim/features.cu - kernels for the features of CUDA that NVIDIA's cuda-samples use and the
// simulator learned for them (issue 18): cooperative groups' multi-warp tiles (block_tile_memory:
// %reserved_smem_offset_1, warps that spin on shared memory), bmsk, vabsdiff4, __nanosleep,
// cp.async with its commit and wait, __half / __half2 / __nv_bfloat16 arithmetic and conversions,
// __dp4a / __dp2a / __sad, and barrier objects (cuda::barrier: mbarrier, with the bulk copy of
// cuda::memcpy_async completing its bytes), and warp matrix multiplies (wmma: f16, u8, tf32).
//
// Every kernel is `(const int *in, int *out, unsigned n)`, the shape kernel-run launches
// generically (in: ints 0..255, 8 * n + 64 of them): tests/test-sim-features.c checks the
// simulator against a computation on the host; tests/sim-corpus.sh lists this file, so
// tests/gpu/record-sim.sh records the H100's results and tests/e2e/test-sim-diff.sh compares.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda/barrier>
#include <cuda_pipeline.h>
#include <mma.h>

namespace cg = cooperative_groups;

// The sum of in over each tile of 64 threads (two warps: a multi-warp tile, whose reduce goes
// through the block's reserved shared memory), and the tile's rank of the thread.
extern "C" __global__ void tile64_sum(const int *in, int *out, unsigned n)
{
    __shared__ cg::block_tile_memory<256> scratch;
    cg::thread_block block = cg::this_thread_block(scratch);
    cg::thread_block_tile<64> tile = cg::tiled_partition<64>(block);
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    int sum = cg::reduce(tile, v, cg::plus<int>());
    tile.sync();
    if (i < n)
        out[i] = sum * 64 + (int)tile.thread_rank();
}

// bmsk.clamp and bmsk.wrap (CUB's and thrust's bit masks): a mask of b bits from bit a, for a
// and b of in (0..255: past 32 too, where clamp and wrap differ); two words per thread.
extern "C" __global__ void bmsk_forms(const int *in, int *out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned a = (unsigned)in[i] % 40, b = (unsigned)in[i + n] % 40, c, w;
    asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(c) : "r"(a), "r"(b));
    asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(w) : "r"(a), "r"(b));
    out[i] = (int)(c ^ (w >> 1));
}

// __nanosleep in a loop that waits for another warp's flag in shared memory (a spin the
// simulator must let the other warp end), then the value that warp wrote.
extern "C" __global__ void nanosleep_wait(const int *in, int *out, unsigned n)
{
    __shared__ volatile int flag, value;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0)
        flag = 0;
    __syncthreads();
    if (threadIdx.x == 32) {
        value = in[blockIdx.x];
        __threadfence_block();
        flag = 1;
    }
    if (threadIdx.x == 0)
        while (!flag)
            __nanosleep(100);
    __syncthreads();
    if (i < n)
        out[i] = value + (int)threadIdx.x;
}

// cp.async (__pipeline_memcpy_async, 16, 4 and 8 bytes) of in into shared memory, in two groups
// committed and waited for apart, then each thread's words and its neighbour's.
extern "C" __global__ void cp_async_groups(const int *in, int *out, unsigned n)
{
    __shared__ __align__(16) int s[4 * 256], s2[4 * 256];
    unsigned t = threadIdx.x, base = blockIdx.x * blockDim.x * 4;
    __pipeline_memcpy_async(&s[4 * t], &in[base + 4 * t], 16);
    __pipeline_commit();
    __pipeline_memcpy_async(&s2[4 * t], &in[base + 4 * t + 1], 4);
    __pipeline_memcpy_async(&s2[4 * t + 2], &in[base + 4 * t + 2], 8);
    __pipeline_commit();
    __pipeline_wait_prior(1);
    int first = s[4 * t];
    __pipeline_wait_prior(0);
    __syncthreads();
    unsigned i = blockIdx.x * blockDim.x + t, u = (t + 1) % blockDim.x;
    if (i < n)
        out[i] = first + 3 * s[4 * u + 3] + 5 * s2[4 * t] + 7 * s2[4 * u + 3];
}

// vabsdiff4 with .add (stereoDisparity's sum of absolute differences, __vabsdiffu4 + an add): the
// four bytes' distances of two words of in, unsigned and signed, added to a third
extern "C" __global__ void vabsdiff4_add(const int *in, int *out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned a = (unsigned)in[i] * 0x01010101u ^ (unsigned)in[i + n] << 8, b = (unsigned)in[i + 2 * n] * 0x00c10301u,
             c = (unsigned)in[i + 3 * n], u, s;
    asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(u) : "r"(a), "r"(b), "r"(c));
    asm("vabsdiff4.u32.s32.s32.add %0, %1, %2, %3;" : "=r"(s) : "r"(a), "r"(b), "r"(c));
    out[i] = (int)(u * 1000 + s);
}

// __half2 fma, add, mul, min, max, abs and neg, __half and __nv_bfloat16 arithmetic and the
// conversions between them and float, of values of in scaled to -8 .. 8 (steps of 1/16, whose
// products round): each thread's results packed in out (a hash of the halves' bits)
extern "C" __global__ void half_ops(const int *in, int *out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = (in[i] - 128) / 16.0f, y = (in[i + n] - 128) / 16.0f + 0.3f, z = (in[i + 2 * n] - 100) / 7.0f;
    __half2 a = __floats2half2_rn(x, y), b = __floats2half2_rn(y, z), c = __floats2half2_rn(z, x);
    __half2 f = __hfma2(a, b, c), s = __hadd2(a, b), p = __hmul2(a, c);
    __half2 mn = __hmin2(a, b), mx = __hmax2(a, b), ab = __habs2(__hneg2(a));
    __half h = __hfma(__low2half(a), __high2half(b), __float2half_rn(z * 1.7f));
    __nv_bfloat16 bx = __float2bfloat16_rn(x * 3.3f), by = __float2bfloat16_rn(z);
    __nv_bfloat16 bs = __hadd(bx, by), bp = __hmul(bx, by), bf = __hfma(bx, by, bs);
    unsigned r = 0;
    __half2 v[] = { f, s, p, mn, mx, ab };
    for (int k = 0; k < 6; k++)
        r = r * 31u + *(const unsigned *)&v[k];
    r = r * 31u + __half_as_ushort(h);
    r = r * 31u + __bfloat16_as_ushort(bs) + 7u * __bfloat16_as_ushort(bp) + 13u * __bfloat16_as_ushort(bf);
    r = r * 31u + (__hlt(__low2half(a), __high2half(a)) ? 1u : 0u) + (unsigned)(int)__half2float(h);
    out[i] = (int)r;
}

// __dp4a (signed and unsigned bytes) and __dp2a_hi / __dp2a_lo of words of in
extern "C" __global__ void dot_bytes(const int *in, int *out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int a = in[i] * 0x01030507 ^ in[i + n] << 12, b = in[i + 2 * n] * 0x00f1a301, c = in[i + 3 * n];
    out[i] = __dp4a(a, b, c) * 7 + (int)__dp4a((unsigned)a, (unsigned)b, (unsigned)c) * 3 +
             __dp2a_hi(a, b, c) * 5 + (int)__dp2a_lo((unsigned)a, (unsigned)b, (unsigned)c);
}

// cuda::barrier in shared memory (mbarrier.init, arrive, try_wait): every thread's word, then a
// bulk copy (cp.async.bulk, its bytes completed on the barrier) of in's second part
#pragma nv_diag_suppress static_var_with_dynamic_init // cuda::barrier's own way: init() below
extern "C" __global__ void barrier_objects(const int *in, int *out, unsigned n)
{
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ __align__(16) int s[256];
    __shared__ int t[256];
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    t[threadIdx.x] = in[i] * 3;
    bar.arrive_and_wait();
    int left = t[(threadIdx.x + 1) % blockDim.x];
    if (threadIdx.x == 0)
        cuda::memcpy_async(s, in + blockIdx.x * blockDim.x + n, cuda::aligned_size_t<16>(blockDim.x * 4), bar);
    bar.arrive_and_wait();
    if (i < n)
        out[i] = left + s[(threadIdx.x + 5) % blockDim.x];
}

// wmma 16x16x16: a (row-major) and b (column-major) of __half, c of float, d = a * b + c; the
// values small multiples of 1/4, so that every sum is exact (any order of the GPU's gives these
// bits).  One warp per 16x16 tile of a 16 x (16 * gridDim.x * blockDim.x / 32) result.
extern "C" __global__ void wmma_f16(const int *in, int *out, unsigned n)
{
    using namespace nvcuda;
    __shared__ __half a[16 * 16], b[16 * 16];
    __shared__ float c[16 * 16];
    unsigned t = threadIdx.x, warp = (blockIdx.x * blockDim.x + t) / 32;
    for (unsigned e = t % 32; e < 256; e += 32) {
        if (t < 32) {
            a[e] = __float2half((float)((int)(in[e] % 17) - 8) / 4.0f);
            b[e] = __float2half((float)((int)(in[e + 256] % 13) - 6) / 4.0f);
            c[e] = (float)(in[e + 512] % 9) - 4.0f;
        }
    }
    __syncthreads();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
    for (int i = 0; i < fc.num_elements; i++)
        fc.x[i] *= (float)(warp + 1);
    wmma::mma_sync(fc, fa, fb, fc);
    if (16 * 16 * (warp + 1) <= n)
        wmma::store_matrix_sync((float *)out + 256 * warp, fc, 16, wmma::mem_col_major);
}

// wmma 16x16x16 of u8 into s32, and the tf32 16x16x8 form of floats rounded with
// cvt.rna.tf32.f32 (__float_to_tf32) whose products and sums are exact in f32 (any order of the
// GPU's gives these bits), both into out
extern "C" __global__ void wmma_int_tf32(const int *in, int *out, unsigned n)
{
    using namespace nvcuda;
    __shared__ unsigned char a[16 * 16];
    __shared__ unsigned char b[16 * 16];
    __shared__ int c[16 * 16];
    __shared__ float ta[16 * 8], tb[8 * 16], tc[16 * 16];
    unsigned t = threadIdx.x;
    if (t >= 32)
        return;
    for (unsigned e = t; e < 256; e += 32) {
        a[e] = (unsigned char)in[e];
        b[e] = (unsigned char)in[e + 256];
        c[e] = in[e + 512] * 1000;
        tc[e] = (float)in[e + 768] / 8.0f;
        if (e < 128) {
            ta[e] = (float)(in[e + 1024] % 64) / 3.0f;          /* rounded to tf32 below */
            tb[e] = (float)(1 << (in[e + 1152] % 4)) / 16.0f; /* powers of 2: exact sums */
        }
    }
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, unsigned char, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, unsigned char, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> fc;
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    if (512 <= n)
        wmma::store_matrix_sync(out, fc, 16, wmma::mem_row_major);
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> ga;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> gb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> gc;
    wmma::load_matrix_sync(ga, ta, 8);
    wmma::load_matrix_sync(gb, tb, 16);
    wmma::load_matrix_sync(gc, tc, 16, wmma::mem_row_major);
    for (int i = 0; i < ga.num_elements; i++)
        ga.x[i] = wmma::__float_to_tf32(ga.x[i]);
    for (int i = 0; i < gb.num_elements; i++)
        gb.x[i] = wmma::__float_to_tf32(gb.x[i]);
    wmma::mma_sync(gc, ga, gb, gc);
    if (512 <= n)
        wmma::store_matrix_sync((float *)out + 256, gc, 16, wmma::mem_row_major);
}

// __sad (signed) and __usad of words of in, one of them negative
extern "C" __global__ void sad_forms(const int *in, int *out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int a = in[i] * 40000 - 5000000, b = in[i + n] * 77 - 9000;
    out[i] = (int)(__sad(a, b, (unsigned)in[i + 2 * n]) * 3u + __usad((unsigned)a, (unsigned)b, 7u));
}
