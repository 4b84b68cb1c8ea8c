// Held out of the model's fit (tests/model/heldout/README.md).  Unrolling 2
// with 8-byte loads: thread t reads the adjacent pair (2t, 2t + 1) of the
// block's 1024 elements as one int2 (element by element in the last block,
// whose pairs may pass n), then the interleaved tree in global memory.
__global__ void reduceUnrolling2(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    unsigned int first = blockIdx.x * blockDim.x * 2;
    int *idata = g_idata + first;
    unsigned int i = first + 2 * tid;
    int sum;

    if (first + 2 * blockDim.x <= n) {
        int2 p = reinterpret_cast<const int2 *>(idata)[tid];
        sum = p.x + p.y;
    } else {
        sum = (i < n ? g_idata[i] : 0) + (i + 1 < n ? g_idata[i + 1] : 0);
    }
    __syncthreads(); // every pair is read before any sum overwrites it
    idata[tid] = sum;
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}
