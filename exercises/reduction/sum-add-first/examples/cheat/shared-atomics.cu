// expect: CONSTRAINT (an earlier step's shared atomics, which this step forbids)
__device__ float dev_sum = 0.0f;

__global__ void sumAddFirst(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float s_sum;
    unsigned int i = blockIdx.x * blockDim.x * 2 + threadIdx.x;

    if (threadIdx.x == 0) s_sum = 0.0f;
    __syncthreads();
    // the earlier step's shared atomics instead of this step's tree
    for (unsigned int k = 0; k < 2; k++)
        if (i + k * blockDim.x < n) atomicAdd_block(&s_sum, pData[i + k * blockDim.x]);
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(&dev_sum, s_sum);
}
