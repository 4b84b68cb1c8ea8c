// Held out of the model's fit (tests/model/heldout/README.md).  Unrolling 8
// with 16-byte loads: thread t reads two int4 (elements 4t .. 4t + 3 and the
// same 2048 further on) of the block's 4096, element by element in a last
// block that passes n; then the interleaved tree in global memory.
__global__ void reduceUnrolling8(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    unsigned int first = blockIdx.x * blockDim.x * 8;
    int *idata = g_idata + first;
    int sum = 0;

    if (first + 8 * blockDim.x <= n) {
        const int4 *q = reinterpret_cast<const int4 *>(idata);
        int4 a = q[tid];
        int4 b = q[tid + blockDim.x];
        sum = (a.x + a.y) + (a.z + a.w) + (b.x + b.y) + (b.z + b.w);
    } else {
        for (unsigned int k = 0; k < 4; k++) {
            if (first + 4 * tid + k < n) sum += idata[4 * tid + k];
            if (first + 4 * (tid + blockDim.x) + k < n) sum += idata[4 * (tid + blockDim.x) + k];
        }
    }
    __syncthreads(); // every element is read before any sum overwrites it
    idata[tid] = sum;
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}
