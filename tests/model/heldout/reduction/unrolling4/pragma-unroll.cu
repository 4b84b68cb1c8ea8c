// Held out of the model's fit (tests/model/heldout/README.md).  Unrolling 4 as
// a loop the compiler unrolls (#pragma unroll), each load guarded, the guards
// hoisted by the compiler; then the interleaved tree in global memory.
#define UNROLL 4

__global__ void reduceUnrolling4(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * UNROLL + tid;
    int *idata = g_idata + blockIdx.x * blockDim.x * UNROLL;
    int v[UNROLL];

#pragma unroll
    for (unsigned int k = 0; k < UNROLL; k++)
        v[k] = idx + k * blockDim.x < n ? g_idata[idx + k * blockDim.x] : 0;
    int sum = 0;
#pragma unroll
    for (unsigned int k = 0; k < UNROLL; k++)
        sum += v[k];
    idata[tid] = sum;
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}
