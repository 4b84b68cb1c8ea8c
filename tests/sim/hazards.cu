// tests/sim/hazards.cu - kernels with the hazards the simulator's checks must name (issue 32),
// each beside its correct twin where one is needed; tests/test-sim-hazards.c runs them.  Not in
// tests/sim-corpus.sh: a GPU runs these kernels into undefined behaviour.
//
// Every kernel is `(const int *in, int *out, unsigned n)`.

// A full-mask shuffle that only the first 16 lanes of each warp execute (the rest have
// returned): the PTX ISA leaves the result undefined, however right the sum comes out.
extern "C" __global__ void shfl_full_mask_half_warp(const int *in, int *out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x % 32 < 16) {
        int v = i < n ? in[i] : 0;
        for (int offset = 8; offset > 0; offset /= 2)
            v += __shfl_xor_sync(0xffffffffu, v, offset);
        out[i] = v;
    }
}

// The same with the mask of the lanes that execute it: right.
extern "C" __global__ void shfl_half_mask_half_warp(const int *in, int *out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x % 32 < 16) {
        int v = i < n ? in[i] : 0;
        for (int offset = 8; offset > 0; offset /= 2)
            v += __shfl_xor_sync(0x0000ffffu, v, offset);
        out[i] = v;
    }
}

// Lanes of one shuffle that give different masks naming each other: undefined.
extern "C" __global__ void shfl_masks_disagree(const int *in, int *out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32;
    int v = i < n ? in[i] : 0;
    v += __shfl_xor_sync(lane == 3 ? 0x0000ffffu : 0xffffffffu, v, 1);
    out[i] = v;
}

// A block sums its shared slots, but only the threads with an element wrote theirs.
extern "C" __global__ void shared_slots_unwritten(const int *in, int *out, unsigned n)
{
    __shared__ int s[256];
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        s[threadIdx.x] = in[i];
    __syncthreads();
    if (threadIdx.x == 0) {
        int sum = 0;
        for (unsigned k = 0; k < blockDim.x; k++)
            sum += s[k];
        out[blockIdx.x] = sum;
    }
}

// The same with every slot written (0 past n): right.
extern "C" __global__ void shared_slots_written(const int *in, int *out, unsigned n)
{
    __shared__ int s[256];
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    if (threadIdx.x == 0) {
        int sum = 0;
        for (unsigned k = 0; k < blockDim.x; k++)
            sum += s[k];
        out[blockIdx.x] = sum;
    }
}

// A shared counter that atomicAdd adds to, which no thread set to 0 first.
extern "C" __global__ void shared_atomic_unwritten(const int *in, int *out, unsigned n)
{
    __shared__ int count;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && in[i] % 2)
        atomicAdd(&count, 1);
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = count;
}

// The CUDA Programming Guide's per-block malloc: 64 bytes a thread asked for, 64 ints written.
extern "C" __global__ void malloc_past_block(const int *in, int *out, unsigned n)
{
    __shared__ int *data;
    if (threadIdx.x == 0)
        data = (int *)malloc(blockDim.x * 64);
    __syncthreads();
    if (data == NULL)
        return;
    for (int k = 0; k < 64; ++k)
        data[k * blockDim.x + threadIdx.x] = in[k];
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = data[threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0)
        free(data);
}

// The same within the block it asked for (16 ints a thread): right.
extern "C" __global__ void malloc_within_block(const int *in, int *out, unsigned n)
{
    __shared__ int *data;
    if (threadIdx.x == 0)
        data = (int *)malloc(blockDim.x * 64);
    __syncthreads();
    if (data == NULL)
        return;
    for (int k = 0; k < 16; ++k)
        data[k * blockDim.x + threadIdx.x] = in[k];
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = data[threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0)
        free(data);
}

// A global counter that threads of several warps add to with no lock: a race.
extern "C" __global__ void counter_unguarded(const int *in, int *out, unsigned n)
{
    if (threadIdx.x % 32 == 0)
        out[blockIdx.x] += in[blockIdx.x * blockDim.x + threadIdx.x];
}

__device__ int hazard_lock;

// A spin lock whose holder writes the counter again after giving the lock back: a race.
extern "C" __global__ void counter_written_outside_lock(const int *in, int *out, unsigned n)
{
    if (threadIdx.x % 32 == 0) {
        int seen = 0;
        bool done = false;
        while (!done) {
            if (atomicCAS(&hazard_lock, 0, 1) == 0) {
                __threadfence();
                seen = out[blockIdx.x] += 1;
                __threadfence();
                atomicExch(&hazard_lock, 0);
                done = true;
            }
        }
        out[blockIdx.x] = seen * 2;
    }
}

// A spin lock given back by a plain store with no fence before it: it orders nothing.
extern "C" __global__ void lock_released_unfenced(const int *in, int *out, unsigned n)
{
    if (threadIdx.x % 32 == 0) {
        bool done = false;
        while (!done) {
            if (atomicCAS(&hazard_lock, 0, 1) == 0) {
                out[blockIdx.x] += 1;
                *(volatile int *)&hazard_lock = 0;
                done = true;
            }
        }
    }
}

// A word taken as a lock (lane 0's atomicCAS 0 -> 1) that lane 1 then changes while it is held
// is no lock but data: the plain updates of two warps to it are a race.
extern "C" __global__ void lock_word_taken_twice(const int *in, int *out, unsigned n)
{
    __shared__ int word;
    if (threadIdx.x == 0)
        word = 0;
    __syncthreads();
    if (threadIdx.x < 2)
        atomicCAS(&word, threadIdx.x, threadIdx.x + 1);
    if (threadIdx.x % 32 == 0)
        word += threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = word;
}
