// expect: COMPILE_ERROR (the loop's body is opened and never closed)
__device__ float warpSum(float v) {
    for (int laneMask = 16; laneMask > 0; laneMask >>= 1) {
        v += __shfl_xor_sync(0xffffffff, v, laneMask);
    }
    return v;
}

__global__ void sumTwoLevel(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float s_data[1024];
    unsigned int tx = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + tx;

    float a = (i < n) ? pData[i] : 0.0f;
    float b = (i + blockDim.x < n) ? pData[i + blockDim.x] : 0.0f;
    s_data[tx] = a + b;
    __syncthreads();

    for (unsigned int stride = blockDim.x / 2; stride > 32; stride >>= 1) {
        if (tx < stride) {
            s_data[tx] += s_data[tx + stride];
        __syncthreads();
    }

    if (tx < 32) {
        float v = warpSum(s_data[tx] + s_data[tx + 32]);
        // the block's sum goes to its own slot: no other block touches it
        if (tx == 0) pPartial[blockIdx.x] = v;
    }
}
