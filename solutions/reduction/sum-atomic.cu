/*
 * Reference for reduction/sum-atomic: note 001's sum_atomic -- every thread
 * adds its one element into a global float with atomicAdd.
 *
 * Contract (the reduce-float driver): grid = ceil(n / blockDim.x); thread i
 * owns pData[i] for i < n.  The lab sets dev_sum to 0 before every launch and
 * reads it back afterwards; pPartial is not used by this step.
 */
__device__ float dev_sum = 0.0f;

__global__ void sumAtomic(const float *pData, float *pPartial, unsigned int n) {
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

    // 16M additions into one address: the hardware does them one after another
    if (i < n) atomicAdd(&dev_sum, pData[i]);
}
