/*
 * reduction/sum-tournament-strided -- sumTournamentStrided.
 *
 * This starter is the previous step's sumTournament, renamed: correct, and
 * exactly as slow.  In the round with distance stride only the threads with
 * tx % (2 * stride) == 0 work, spread over every warp of the block.
 *
 * Your task: keep the same pairs (s_data[i] += s_data[i + stride] for every i
 * that is a multiple of 2 * stride) but give them to consecutive threads:
 * thread tx takes i = 2 * stride * tx.  Then measure what that costs in
 * shared memory: `cudalab profile` counts the bank conflicts
 * (shared_ld_bank_conflict).  See task.md.
 */
__device__ float dev_sum = 0.0f;

__global__ void sumTournamentStrided(const float *pData, float *pPartial, unsigned int n) {
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
