// expect: WRONG (the Programming Guide's per-block malloc asks for 64 bytes a thread and writes 64 floats a thread: 4x past the block)
__device__ float dev_sum = 0.0f;

__global__ void sumTournament(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float *data;
    __shared__ float s_data[1024];
    unsigned int tx = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + tx;

    // one block of the device heap for the whole thread block
    if (tx == 0) data = (float *)malloc(blockDim.x * 64);
    __syncthreads();
    if (data == NULL) return;
    for (int k = 0; k < 64; ++k) data[k * blockDim.x + tx] = (k == 0 && i < n) ? pData[i] : 0.0f;
    __syncthreads();

    float v = 0.0f;
    for (int k = 0; k < 64; ++k) v += data[k * blockDim.x + tx];
    s_data[tx] = v;
    __syncthreads();
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        if (tx % (2 * stride) == 0) s_data[tx] += s_data[tx + stride];
        __syncthreads();
    }
    if (tx == 0) {
        atomicAdd(&dev_sum, s_data[0]);
        free(data);
    }
}
