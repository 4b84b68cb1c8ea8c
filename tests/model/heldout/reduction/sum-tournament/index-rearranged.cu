// Held out of the model's fit (tests/model/heldout/README.md).  The tournament
// with its pairs given to the first threads: in the round with distance
// stride, thread tx works on pair index = 2 * stride * tx, so whole warps work
// and whole warps idle (the notes' neighbored-less, in shared memory).
__device__ float dev_sum = 0.0f;

__global__ void sumTournament(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float s_data[1024];
    unsigned int tx = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + tx;

    s_data[tx] = (i < n) ? pData[i] : 0.0f;
    __syncthreads();
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        unsigned int index = 2 * stride * tx;
        if (index < blockDim.x)
            s_data[index] += s_data[index + stride];
        __syncthreads();
    }
    if (tx == 0) atomicAdd(&dev_sum, s_data[0]);
}
