// expect: WRONG (never reads its input: writes the chains of the index instead)
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
    (void)in;
    if (i < n) out[i] = (int)(i % 2 == 0 ? leftPath(i) : rightPath(i));
}
