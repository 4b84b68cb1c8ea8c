// expect: WRONG (threads past n store nothing, so the tournament adds shared slots no thread of the block wrote: a GPU's stale shared memory gets into the sum)
__device__ float dev_sum = 0.0f;

__global__ void sumTournament(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float s_data[1024];
    unsigned int tx = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + tx;

    // only the threads with an element store one
    if (i < n) s_data[tx] = pData[i];
    __syncthreads();

    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        if (tx % (2 * stride) == 0) {
            s_data[tx] += s_data[tx + stride];
        }
        __syncthreads();
    }
    if (tx == 0) atomicAdd(&dev_sum, s_data[0]);
}
