// expect: PASS (the reference with tx % (2 * stride) written as a mask)
__device__ float dev_sum = 0.0f;

__global__ void sumTournament(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float s_data[1024];
    unsigned int tx = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + tx;

    // each thread loads one element from global to shared memory
    s_data[tx] = (i < n) ? pData[i] : 0.0f;
    __syncthreads();

    // tournament in shared memory: stride 1, 2, 4, ...
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        if ((tx & (2 * stride - 1)) == 0) {
            s_data[tx] += s_data[tx + stride];
        }
        __syncthreads();
    }

    // one global atomic per block
    if (tx == 0) atomicAdd(&dev_sum, s_data[0]);
}
