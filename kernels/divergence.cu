// divergence.cu - the divergence chapter's demo kernels (lab/demos/demo-divergence.c).
//
// mathKernel1-4 and warmingup are the notes' simpleDivergence kernels as the
// notes give them, mathKernel4's operator-precedence bug included: in
// `itid & 0x01 == 0` the comparison binds first, so it is `itid & 0`, never
// true.  mathKernel4fixed adds the parentheses.  At the default optimisation
// all of these compile to selects (no branch), so they take the same time.
//
// The longBranch kernels give each side of the branch a long chain of
// dependent arithmetic that the compiler cannot turn into a select: a warp
// whose lanes disagree runs both chains one after the other.
// Built to PTX by the Makefile (build/libexec/cudalab/divergence.ptx).

__global__ void mathKernel1(float *c)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float a, b;
    a = b = 0.0f;

    if (tid % 2 == 0) {
        a = 100.0f;
    } else {
        b = 200.0f;
    }
    c[tid] = a + b;
}

__global__ void mathKernel2(float *c)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float a, b;
    a = b = 0.0f;

    if ((tid / warpSize) % 2 == 0) {
        a = 100.0f;
    } else {
        b = 200.0f;
    }
    c[tid] = a + b;
}

__global__ void mathKernel3(float *c)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float ia, ib;
    ia = ib = 0.0f;

    bool ipred = (tid % 2 == 0);

    if (ipred) {
        ia = 100.0f;
    }

    if (!ipred) {
        ib = 200.0f;
    }
    c[tid] = ia + ib;
}

__global__ void mathKernel4(float *c)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float ia, ib;
    ia = ib = 0.0f;

    int itid = tid >> 5;

    if (itid & 0x01 == 0) {
        ia = 100.0f;
    } else {
        ib = 200.0f;
    }
    c[tid] = ia + ib;
}

__global__ void mathKernel4fixed(float *c)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float ia, ib;
    ia = ib = 0.0f;

    int itid = tid >> 5;

    if ((itid & 0x01) == 0) {
        ia = 100.0f;
    } else {
        ib = 200.0f;
    }
    c[tid] = ia + ib;
}

__global__ void warmingup(float *c)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float ia, ib;
    ia = ib = 0.0f;

    if ((tid / warpSize) % 2 == 0) {
        ia = 100.0f;
    } else {
        ib = 200.0f;
    }
    c[tid] = ia + ib;
}

#define LONG_STEPS 128

// 128 dependent multiply-adds on one side, 128 dependent reciprocal square roots on the
// other: different instructions, so the compiler cannot merge the two into one select.
__device__ float longPath(int tid, bool left)
{
    float v = (float)(tid & 1023) * 1e-3f;
    if (left) {
#pragma unroll
        for (int i = 0; i < LONG_STEPS; i++)
            v = v * 0.999f + 0.5f;
    } else {
#pragma unroll
        for (int i = 0; i < LONG_STEPS; i++)
            v = rsqrtf(v + 1.0f) + 0.25f;
    }
    return v;
}

// mode 0: every thread takes the multiply-add side; 3: every thread the square-root side;
// 1: sides alternate by warp; 2: by thread.  The two sides do not cost the same (the
// square roots run on the SM's few special-function units), so 1 and 2 are compared with
// the mean of 0 and 3: the same mix of work with no warp divided.
__global__ void longBranch(float *c, int mode)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    bool left = mode == 0   ? true
                : mode == 3 ? false
                : mode == 1 ? ((tid / warpSize) % 2 == 0)
                            : (tid % 2 == 0);
    c[tid] = longPath(tid, left);
}
