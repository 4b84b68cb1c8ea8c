// expect: PASS (atomicAdd on the shared float: device scope, still a shared-memory atomic)
__device__ float dev_sum = 0.0f;

__global__ void sumSharedAtomic(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float s_sum;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (threadIdx.x == 0) s_sum = 0.0f;
    __syncthreads();  // s_sum is 0 before anyone adds

    // block-scope atomics: contention only among this block's threads
    if (i < n) atomicAdd(&s_sum, pData[i]);
    __syncthreads();  // every addition is in before thread 0 reads s_sum

    if (threadIdx.x == 0) atomicAdd(&dev_sum, s_sum);
}
