// Held out of the model's fit (tests/model/heldout/README.md).  Unrolling 4
// with 16-byte loads: thread t reads elements 4t .. 4t + 3 of the block's 2048
// as one int4 (element by element in a last block that passes n), then the
// interleaved tree in global memory.
__global__ void reduceUnrolling4(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    unsigned int first = blockIdx.x * blockDim.x * 4;
    int *idata = g_idata + first;
    int sum = 0;

    if (first + 4 * blockDim.x <= n) {
        int4 q = reinterpret_cast<const int4 *>(idata)[tid];
        sum = (q.x + q.y) + (q.z + q.w);
    } else {
        for (unsigned int k = 0; k < 4; k++)
            if (first + 4 * tid + k < n) sum += idata[4 * tid + k];
    }
    __syncthreads(); // every quad is read before any sum overwrites it
    idata[tid] = sum;
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}
