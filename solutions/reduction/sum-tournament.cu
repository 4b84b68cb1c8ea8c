/*
 * Reference for reduction/sum-tournament: note 001's sum_reduce -- a
 * tournament in shared memory with interleaved addressing.  In the round with
 * distance stride, the threads whose tx is a multiple of 2 * stride add their
 * neighbour at tx + stride; after log2(blockDim.x) rounds s_data[0] holds the
 * block's sum, which thread 0 adds into dev_sum.
 *
 * Contract (the reduce-float driver): blockDim.x = 1024 (a power of two),
 * grid = ceil(n / blockDim.x); block b owns [b * 1024, (b + 1) * 1024) below
 * n.  Elements past n count as 0.  The lab zeroes dev_sum before every launch.
 *
 * As the notes give it, except: `register` dropped (C++17 has no register
 * storage class) and the load made safe for the last, partial block.
 */
__device__ float dev_sum = 0.0f;

__global__ void sumTournament(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float s_data[1024];
    unsigned int tx = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + tx;

    // each thread loads one element from global to shared memory
    s_data[tx] = (i < n) ? pData[i] : 0.0f;
    __syncthreads();

    // tournament in shared memory: stride 1, 2, 4, ...
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        if (tx % (2 * stride) == 0) {
            s_data[tx] += s_data[tx + stride];
        }
        __syncthreads();
    }

    // one global atomic per block
    if (tx == 0) atomicAdd(&dev_sum, s_data[0]);
}
