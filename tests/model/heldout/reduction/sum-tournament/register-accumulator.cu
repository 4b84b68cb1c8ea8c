// Held out of the model's fit (tests/model/heldout/README.md).  The tournament
// with each thread's running sum in a register: a working thread reads only
// its partner from shared memory and stores its sum back for the round that
// reads it.
__device__ float dev_sum = 0.0f;

__global__ void sumTournament(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float s_data[1024];
    unsigned int tx = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + tx;
    float v = (i < n) ? pData[i] : 0.0f;

    s_data[tx] = v;
    __syncthreads();
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        if (tx % (2 * stride) == 0) {
            v += s_data[tx + stride];
            s_data[tx] = v;
        }
        __syncthreads();
    }
    if (tx == 0) atomicAdd(&dev_sum, v);
}
