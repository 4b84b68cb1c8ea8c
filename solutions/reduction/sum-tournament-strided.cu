/*
 * Reference for reduction/sum-tournament-strided: note 002's "interleaved
 * addressing" -- the tournament's pairs, each given to a consecutive thread.
 * In the round with distance stride the pairs start at 0, 2*stride,
 * 4*stride, ...; thread tx takes the one at index = 2 * stride * tx, so the
 * working threads are tx 0, 1, 2, ...: whole warps work and whole warps idle.
 *
 * The price is in shared memory: a warp's 32 threads read s_data[index] with
 * a stride of 2 * stride floats, and shared memory has 32 banks of 4 bytes, so
 * at stride 1 two threads share each bank (2-way conflict), at stride 2 four
 * do, up to 32-way at stride 16.  The next step (sum-reversed) reads
 * consecutive floats instead and removes the conflicts.
 *
 * Contract (the reduce-float driver): blockDim.x = 1024 (a power of two),
 * grid = ceil(n / blockDim.x); block b owns [b * 1024, (b + 1) * 1024) below
 * n.  Elements past n count as 0.  The lab zeroes dev_sum before every launch.
 */
__device__ float dev_sum = 0.0f;

__global__ void sumTournamentStrided(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float s_data[1024];
    unsigned int tx = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + tx;

    // each thread loads one element from global to shared memory
    s_data[tx] = (i < n) ? pData[i] : 0.0f;
    __syncthreads();

    // the tournament's pairs, handed to consecutive threads
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        unsigned int index = 2 * stride * tx;
        if (index < blockDim.x) {
            s_data[index] += s_data[index + stride];
        }
        __syncthreads();
    }

    // one global atomic per block
    if (tx == 0) atomicAdd(&dev_sum, s_data[0]);
}
