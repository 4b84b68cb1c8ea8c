/*
 * Reference for divergence/long-branch: the long branch made warp-uniform.
 *
 * out[i] = leftPath(in[i]) for even i, rightPath(in[i]) for odd i.  Warps go
 * in pairs: the pair p covers the 64 elements [64p, 64p + 64); its even warp
 * takes the even ones (64p + 2 * lane) and its odd warp the odd ones (64p +
 * 2 * lane + 1).  Every warp then takes one side of the branch as a whole:
 * the same work as thread i -> element i, with no warp divided (the notes'
 * mathKernel2, keeping mathKernel1's outputs).  The loads and stores read
 * every other word, so each warp touches twice the sectors it uses; the
 * sides are long enough that the branch, not the memory, decides the time.
 *
 * Contract (the branch-int driver): grid = ceil(n / blockDim.x), blockDim.x a
 * multiple of 64, so the threads cover every element below n rounded up to 64.
 */
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
    unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int warp = g / 32, lane = g % 32;

    // the warp pair's 64 elements; the warp's parity picks the side, for all its lanes
    unsigned int i = 64 * (warp / 2) + 2 * lane + warp % 2;

    if (i < n) {
        unsigned int v = (unsigned int)in[i];
        out[i] = (int)(warp % 2 == 0 ? leftPath(v) : rightPath(v));
    }
}
