// Held out of the model's fit (tests/model/heldout/README.md).  Sequential
// addressing with each thread's running sum in a register: a working thread
// reads only its partner and stores its new sum for the round that reads it.
__device__ float dev_sum = 0.0f;

__global__ void sumReversed(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float s_data[1024];
    unsigned int tx = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + tx;
    float v = (i < n) ? pData[i] : 0.0f;

    s_data[tx] = v;
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tx < stride) {
            v += s_data[tx + stride];
            s_data[tx] = v;
        }
        __syncthreads();
    }
    if (tx == 0) atomicAdd(&dev_sum, v);
}
