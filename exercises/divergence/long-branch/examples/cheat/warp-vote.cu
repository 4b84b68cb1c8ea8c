// expect: CONSTRAINT (a warp vote to skip the side no lane takes: this step forbids warp collectives)
#define LONG_STEPS 64

// The two sides of the branch: 64 dependent steps each, of different instructions, so the
// compiler keeps a real branch (no predication, no select).  Do not change them: the lab
// checks every out[i] against these exact chains.
__device__ unsigned int leftPath(unsigned int v) {
#pragma unroll
    for (int s = 0; s < LONG_STEPS; s++) v = v * 1664525u + (v >> 13);
    return v;
}

__device__ unsigned int rightPath(unsigned int v) {
#pragma unroll
    for (int s = 0; s < LONG_STEPS; s++) v = (v ^ (v >> 15)) * 0x2C1B3C6Du + 0x3C6EF372u;
    return v;
}

__global__ void longBranchUniform(const int *in, int *out, unsigned int n) {
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int v = i < n ? (unsigned int)in[i] : 0u;
    unsigned int r = 0;

    if (__any_sync(0xffffffffu, i % 2 == 0) && i % 2 == 0) r = leftPath(v);
    if (__any_sync(0xffffffffu, i % 2 == 1) && i % 2 == 1) r = rightPath(v);
    if (i < n) out[i] = (int)r;
}
