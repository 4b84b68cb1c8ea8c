// Kernels for the simulator's dynamic-parallelism tests (tests/test-sim-dynpar.c), built
// with nvcc -rdc=true -ptx: device-side launches become calls of CUDA 12's
// __cudaCDP2GetParameterBufferV2 / __cudaCDP2LaunchDeviceV2.
#include <cstdio>

__global__ void child_fill(int *out, int base);
__global__ void child_log(int *log, int *pos, int tag, int nest);

// every block's thread 0 launches a grid of 2 x 32 threads on its 64 elements
extern "C" __global__ void parent_fill(int *out)
{
    if (threadIdx.x == 0)
        child_fill<<<2, 32>>>(out, blockIdx.x * 64);
}

__global__ void child_fill(int *out, int base)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[base + t] = base + t + 1;
}

// appends tag to the log; with nest, launches a grandchild that appends tag * 10
__global__ void child_log(int *log, int *pos, int tag, int nest)
{
    if (threadIdx.x == 0) {
        log[atomicAdd(pos, 1)] = tag;
        if (nest)
            child_log<<<1, 32>>>(log, pos, tag * 10, 0);
    }
}

// a tail launch first, then two grids in the block's NULL stream, the first with a child:
// the stream runs 1 (and its child 10) before 2, the tail launch after all of them
extern "C" __global__ void stream_order(int *log, int *pos)
{
    if (threadIdx.x == 0) {
        child_log<<<1, 32, 0, cudaStreamTailLaunch>>>(log, pos, 3, 0);
        child_log<<<1, 32>>>(log, pos, 1, 1);
        child_log<<<1, 32, 0, 0>>>(log, pos, 2, 0);
        child_log<<<1, 32, 0, cudaStreamFireAndForget>>>(log, pos, 7, 0);
    }
}

// launches itself until depth == stop; records the deepest level reached
extern "C" __global__ void recurse(int depth, int stop, int *deepest)
{
    atomicMax(deepest, depth);
    if (threadIdx.x == 0 && depth < stop)
        recurse<<<1, 1>>>(depth + 1, stop, deepest);
}

// the nested reduction's fold with the __syncthreads() before the launch left out: the
// child need not see what the other threads folded
extern "C" __global__ void fold_no_barrier(int *data, int *out, unsigned n)
{
    unsigned tid = threadIdx.x, half = (n + 1) / 2;
    if (n == 1) {
        if (tid == 0)
            *out = data[0];
        return;
    }
    if (tid < n - half)
        data[tid] += data[tid + half];
    if (tid == 0)
        fold_no_barrier<<<1, half>>>(data, out, half);
}

// one launch per lane of a warp with a shared-memory size: each child writes its lane
extern "C" __global__ void per_lane(int *out)
{
    child_fill<<<1, 1, 16 * threadIdx.x>>>(out, threadIdx.x);
}

extern "C" __global__ void bad_shape(int *out)
{
    if (threadIdx.x == 0)
        child_fill<<<1, 2048>>>(out, 0);
}

extern "C" __global__ void says_hello(int *out)
{
    printf("hello from %d\n", threadIdx.x);
    out[threadIdx.x] = 1;
}

// defined in another file (relocatable device code): the simulator runs one module
extern __device__ int elsewhere(int v);

extern "C" __global__ void calls_elsewhere(int *out)
{
    out[threadIdx.x] = elsewhere((int)threadIdx.x);
}
