// expect: WRONG (index < blockDim.x - stride - 1 drops the last pair of round 1: s_data[1022] + s_data[1023])
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
        if (index < blockDim.x - stride - 1) {
            s_data[index] += s_data[index + stride];
        }
        __syncthreads();
    }

    // one global atomic per block
    if (tx == 0) atomicAdd(&dev_sum, s_data[0]);
}
