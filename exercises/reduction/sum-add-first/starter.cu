/*
 * reduction/sum-add-first -- sumAddFirst.  This exercise runs with unroll 2:
 * grid = ceil(n / 2048), and block b owns the 2048 elements from b * 2048.
 *
 * This starter is the previous step's reversed tournament, run twice per
 * block, once on each half of the block's 2048 elements: correct, and no
 * faster than the baseline -- the same loads, the same rounds, only in half
 * as many blocks.
 *
 * Your task: add first.  Let each thread load its two elements (i and
 * i + blockDim.x), add them in a register, and store that one sum to shared
 * memory; then run the tournament once.  See task.md.
 */
__device__ float dev_sum = 0.0f;

__global__ void sumAddFirst(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float s_data[1024];
    unsigned int tx = threadIdx.x;
    float total = 0.0f;  // meaningful in thread 0 only

    // the block's two halves, one after the other
    for (unsigned int half = 0; half < 2; half++) {
        unsigned int i = blockIdx.x * (blockDim.x * 2) + half * blockDim.x + tx;

        s_data[tx] = (i < n) ? pData[i] : 0.0f;
        __syncthreads();

        for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
            if (tx < stride) {
                s_data[tx] += s_data[tx + stride];
            }
            __syncthreads();
        }

        if (tx == 0) total += s_data[0];
        __syncthreads();  // s_data[0] is read before the next half overwrites it
    }

    if (tx == 0) atomicAdd(&dev_sum, total);
}
