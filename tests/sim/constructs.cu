// tests/sim/constructs.cu - kernels for the constructs the simulator learned after the course's
// corpus: barrier reductions (__syncthreads_count/_and/_or: bar.red), addresses with negative
// and symbol-relative offsets ([%rd+-4], [sym+12]) and the slow path of the accurate sinf/cosf
// (Payne-Hanek reduction: a local array read at [%rd+-4]).
//
// Every kernel is `(const int *in, int *out, unsigned n)`, the shape kernel-run launches
// generically (in: ints 0..255, 8 * n + 64 of them): tests/test-sim.c checks the simulator
// against a computation on the host; tests/sim-corpus.sh lists this file, so
// tests/gpu/record-sim.sh records the H100's results and tests/e2e/test-sim-diff.sh compares.

// c = threads of the block with in > 100, a = no thread has in == 7, o = a thread has in == 42
extern "C" __global__ void bar_red(const int *in, int *out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    int c = __syncthreads_count(v > 100);
    int a = __syncthreads_and(v != 7);
    int o = __syncthreads_or(v == 42);
    if (i < n)
        out[i] = c * 4 + a * 2 + o;
}

// The reductions where only some warps' lanes hold: a block-wide count of odd thread ids (half
// of every warp) and whether all or any of the first 40 threads' values are below 200.
extern "C" __global__ void bar_red_mixed(const int *in, int *out, unsigned n)
{
    unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    int v = i < n ? in[i] : 0;
    int odd = __syncthreads_count(t & 1);
    int all = __syncthreads_and(t >= 40 || v < 200);
    int any = __syncthreads_or(t < 40 && v >= 200);
    if (i < n)
        out[i] = odd * 4 + all * 2 + any;
}

// p[-1], p[-2] of a pointer past a run-time offset: nvcc writes [%rd+-4], [%rd+-8]
extern "C" __global__ void neg_offsets(const int *in, int *out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    const int *p = in + i + n;
    if (i < n)
        out[i] = p[-1] - 3 * p[-2];
}

__device__ int sym_table[16] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3 };

// table[3] and s[5]: [sym+12], [sym+20]
extern "C" __global__ void sym_offsets(const int *in, int *out, unsigned n)
{
    __shared__ int s[64];
    unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (t < 64)
        s[t] = (int)t * 10;
    __syncthreads();
    if (i < n)
        out[i] = sym_table[3] * 1000 + sym_table[in[i] & 15] * 100 + s[5];
}

// sinf, cosf and tanf of arguments past 105615: the accurate slow path (a local array of the
// argument's bits times 2/pi, read backwards)
extern "C" __global__ void trig_slow_path(const int *in, int *out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = (float)in[i] * 98765.4f + 131072.5f, s, c;
    sincosf(x, &s, &c);
    out[3 * i] = __float_as_int(s);
    out[3 * i + 1] = __float_as_int(c);
    out[3 * i + 2] = __float_as_int(tanf(x));
}

// --- calls by the .param calling convention: functions nvcc keeps (__noinline__, recursion,
// pointers) -------------------------------------------------------------------------------
__device__ __noinline__ int sq_plus(int a, int b)
{
    return a * a + b;
}

__device__ __noinline__ float scale_add(float x, float k, double d)
{
    return x * k + (float)d;
}

__device__ __noinline__ void store_pair(int *p, int v)
{
    p[0] = v;
    p[1] = v + 1;
}

__device__ __noinline__ int fib(int n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

// out[4i..4i+3] = in*in + i, bits of in * 2.5 + 0.25, fib(in % 12), fib(in % 12) + 1
extern "C" __global__ void calls(const int *in, int *out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = in[i];
    out[4 * i] = sq_plus(v, (int)i);
    out[4 * i + 1] = __float_as_int(scale_add((float)v, 2.5f, 0.25));
    store_pair(out + 4 * i + 2, fib(v % 12));
}

__device__ __noinline__ int add_op(int a, int b)
{
    return a + b;
}

__device__ __noinline__ int sub_op(int a, int b)
{
    return a - b;
}

__device__ __noinline__ int mul_op(int a, int b)
{
    return a * b;
}

__device__ int (*const ops[3])(int, int) = { add_op, sub_op, mul_op };

// through function pointers, a different one per lane: ops[in % 3](in, i)
extern "C" __global__ void call_pointers(const int *in, int *out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = ops[in[i] % 3](in[i], (int)i);
}

// --- malloc and free: each thread's block of the device heap -------------------------------------
// out[i] = the sum of in[i..i+15] through a block of 16 ints, 0 if malloc returned NULL
extern "C" __global__ void heap_sums(const int *in, int *out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int *p = (int *)malloc(16 * sizeof(int)), s = 0;
    if (!p) {
        out[i] = 0;
        return;
    }
    for (int k = 0; k < 16; k++)
        p[k] = in[i + k];
    for (int k = 0; k < 16; k++)
        s += p[15 - k];
    free(p);
    out[i] = s;
}

// --- the GPU the simulator stands for: the H100 SXM's SMs and warp slots -----------------------
// out[i] = %nsmid * 1000 + %nwarpid (132064 on an H100 SXM), + 1 where %laneid is not i % 32
extern "C" __global__ void gpu_shape(const int *in, int *out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x, nsmid, nwarpid, laneid;
    asm("mov.u32 %0, %%nsmid;" : "=r"(nsmid));
    asm("mov.u32 %0, %%nwarpid;" : "=r"(nwarpid));
    asm("mov.u32 %0, %%laneid;" : "=r"(laneid));
    if (i < n)
        out[i] = (int)(nsmid * 1000 + nwarpid) + (laneid != i % 32) + 0 * in[i];
}
