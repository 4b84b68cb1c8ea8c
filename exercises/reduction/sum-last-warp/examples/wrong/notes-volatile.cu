// expect: CONSTRAINT (the notes' volatile warpSum without __syncwarp: lockstep is not promised since Volta)
__device__ float dev_sum = 0.0f;

// the last six rounds, for the first warp: s[tx] += s[tx + 32], ..., s[tx] += s[tx + 1]
__device__ void warpSum(volatile float *s_data, unsigned int tx) {
    s_data[tx] += s_data[tx + 32];
    s_data[tx] += s_data[tx + 16];
    s_data[tx] += s_data[tx + 8];
    s_data[tx] += s_data[tx + 4];
    s_data[tx] += s_data[tx + 2];
    s_data[tx] += s_data[tx + 1];
}

__global__ void sumLastWarp(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float s_data[1024];
    unsigned int tx = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + tx;

    float a = (i < n) ? pData[i] : 0.0f;
    float b = (i + blockDim.x < n) ? pData[i + blockDim.x] : 0.0f;
    s_data[tx] = a + b;
    __syncthreads();

    // block-wide rounds while more than one warp has work
    for (unsigned int stride = blockDim.x / 2; stride > 32; stride >>= 1) {
        if (tx < stride) {
            s_data[tx] += s_data[tx + stride];
        }
        __syncthreads();
    }

    if (tx < 32) warpSum(s_data, tx);

    if (tx == 0) atomicAdd(&dev_sum, s_data[0]);
}
