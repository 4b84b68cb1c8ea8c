// expect: WRONG (the last block's slots past n are never written, yet the halving loop adds them: uninitialised shared memory)
__device__ float dev_sum = 0.0f;

__global__ void sumReversed(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float s_data[1024];
    unsigned int tx = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + tx;

    if (i < n) s_data[tx] = pData[i];
    __syncthreads();

    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tx < stride) {
            s_data[tx] += s_data[tx + stride];
        }
        __syncthreads();
    }

    if (tx == 0) atomicAdd(&dev_sum, s_data[0]);
}
