// expect: COMPILE_ERROR (passes the shared array's volatile pointer on as a plain float *)
__device__ float dev_sum = 0.0f;

// the last six rounds, for the first warp: s[tx] += s[tx + 32], ..., s[tx] += s[tx + 1]
__device__ void warpSum(volatile float *s_data, unsigned int tx) {
    float *plain = s_data;
    float v = plain[tx];
    for (unsigned int stride = 32; stride > 0; stride >>= 1) {
        v += s_data[tx + stride];
        __syncwarp();  // every lane has read before any lane writes
        s_data[tx] = v;
        __syncwarp();  // every lane has written before the next read
    }
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
