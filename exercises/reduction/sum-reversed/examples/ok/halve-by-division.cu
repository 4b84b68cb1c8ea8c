// expect: PASS (the reference with the stride halved by / 2)
__device__ float dev_sum = 0.0f;

__global__ void sumReversed(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float s_data[1024];
    unsigned int tx = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + tx;

    s_data[tx] = (i < n) ? pData[i] : 0.0f;
    __syncthreads();

    // >>= 1: halve the stride; the working threads stay consecutive
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tx < stride) {
            s_data[tx] += s_data[tx + stride];
        }
        __syncthreads();
    }

    if (tx == 0) atomicAdd(&dev_sum, s_data[0]);
}
