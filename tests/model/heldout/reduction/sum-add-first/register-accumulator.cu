// Held out of the model's fit (tests/model/heldout/README.md).  Add first with
// each thread's running sum in a register through the rounds.
__device__ float dev_sum = 0.0f;

__global__ void sumAddFirst(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float s_data[1024];
    unsigned int tx = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + tx;
    float v = ((i < n) ? pData[i] : 0.0f) + ((i + blockDim.x < n) ? pData[i + blockDim.x] : 0.0f);

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
