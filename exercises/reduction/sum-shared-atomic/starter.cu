/*
 * reduction/sum-shared-atomic -- sumSharedAtomic.
 *
 * This starter is the previous step's sumAtomic, renamed: correct, and as
 * slow as the baseline, because all 16M additions go to one global address.
 *
 * Your task: let each block first add its elements into one __shared__
 * float with atomicAdd_block, and let one thread per block add that total
 * into dev_sum.  The exercise requires a shared-memory atomic
 * (`require atom.shared`).  See task.md.
 */
__device__ float dev_sum = 0.0f;

__global__ void sumSharedAtomic(const float *pData, float *pPartial, unsigned int n) {
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

    // 16M additions into one address: the hardware does them one after another
    if (i < n) atomicAdd(&dev_sum, pData[i]);
}
