// occupancy.cu - kernels with known, different resources for the occupancy
// calculator exercise (lab/drivers/host-occupancy.c).  They are never
// launched: the driver reads each one's registers per thread and static
// shared memory, and asks the CUDA occupancy API how many of its blocks fit
// on an SM for many block sizes and amounts of dynamic shared memory.  Few,
// some and many live values give low, middle and high register counts (the
// exact counts are whatever the JIT makes of them; the driver reads them).
// Built to PTX by the Makefile (build/libexec/cudalab/occupancy.ptx).

template <int N> __device__ void keepLive(float *out, const float *in)
{
    float v[N];
#pragma unroll
    for (int i = 0; i < N; i++)
        v[i] = in[threadIdx.x + i * blockDim.x];
#pragma unroll
    for (int k = 0; k < 4; k++)
#pragma unroll
        for (int i = 0; i < N; i++)
            v[i] = v[i] * v[(i + 1) % N] + 1.0f;
    float s = 0.0f;
#pragma unroll
    for (int i = 0; i < N; i++)
        s += v[i] * (float)(i + 1);
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

extern "C" __global__ void labOccFew(float *out, const float *in)
{
    keepLive<4>(out, in);
}

extern "C" __global__ void labOccSome(float *out, const float *in)
{
    keepLive<40>(out, in);
}

extern "C" __global__ void labOccMany(float *out, const float *in)
{
    keepLive<120>(out, in);
}

// 6 KiB of static shared memory.
extern "C" __global__ void labOccShared(float *out, const float *in)
{
    __shared__ float tile[1536];
    tile[threadIdx.x % 1536] = in[threadIdx.x];
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = tile[(threadIdx.x + 1) % 1536];
}
