// Held out of the model's fit (tests/model/heldout/README.md).  Unrolling 8 as
// a strided loop over the block's eight data blocks (#pragma unroll 8 on a
// loop whose trip count the compiler cannot know), then the interleaved tree.
__global__ void reduceUnrolling8(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    unsigned int first = blockIdx.x * blockDim.x * 8;
    unsigned int last = min(first + 8 * blockDim.x, n);
    int *idata = g_idata + first;
    int sum = 0;

#pragma unroll 8
    for (unsigned int i = first + tid; i < last; i += blockDim.x)
        sum += g_idata[i];
    idata[tid] = sum;
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}
