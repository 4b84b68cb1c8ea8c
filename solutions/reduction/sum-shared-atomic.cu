/*
 * Reference for reduction/sum-shared-atomic: note 001's sum_shared -- the
 * threads of a block add into one shared float with atomicAdd_block, then
 * thread 0 adds the block's total into the global float: one global atomic
 * per block instead of one per element.
 *
 * Contract (the reduce-float driver): grid = ceil(n / blockDim.x); block b
 * owns the elements [b * blockDim.x, (b + 1) * blockDim.x) below n.  The lab
 * zeroes dev_sum before every launch; pPartial is not used.
 */
__device__ float dev_sum = 0.0f;

__global__ void sumSharedAtomic(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float s_sum;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (threadIdx.x == 0) s_sum = 0.0f;
    __syncthreads();  // s_sum is 0 before anyone adds

    // block-scope atomics: contention only among this block's threads
    if (i < n) atomicAdd_block(&s_sum, pData[i]);
    __syncthreads();  // every addition is in before thread 0 reads s_sum

    if (threadIdx.x == 0) atomicAdd(&dev_sum, s_sum);
}
