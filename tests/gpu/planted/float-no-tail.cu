// Planted for make test-gpu (expected verdict: WRONG): sumAddFirst whose
// second load has no bound, so the last block adds the lab's NaN poison from
// past n and the sum is NaN.
__device__ float dev_sum = 0.0f;

__global__ void sumAddFirst(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float s_data[1024];
    unsigned int tx = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + tx;

    float a = (i < n) ? pData[i] : 0.0f;
    float b = pData[i + blockDim.x];  // planted: no bound
    s_data[tx] = a + b;
    __syncthreads();

    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tx < stride) s_data[tx] += s_data[tx + stride];
        __syncthreads();
    }

    if (tx == 0) atomicAdd(&dev_sum, s_data[0]);
}
