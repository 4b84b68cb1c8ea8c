/*
 * reduction/sum-atomic -- sumAtomic, the first float step of note 001.
 *
 * This starter is the obvious parallel loop: every thread adds its element
 * into dev_sum with a plain `+=`.  It compiles and runs, and it is wrong: a
 * `+=` on memory is a load, an add and a store, and thousands of threads do
 * them at the same time, so most additions are overwritten and lost.
 *
 * Your task: make every addition count, with an atomic read-modify-write.
 * Keep the signature; pPartial is not used by this step.  See task.md;
 * `cudalab grade reduction/sum-atomic` checks it.
 */
__device__ float dev_sum = 0.0f;

__global__ void sumAtomic(const float *pData, float *pPartial, unsigned int n) {
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

    // a data race: many threads read the same old value and store over each other
    if (i < n) dev_sum += pData[i];
}
