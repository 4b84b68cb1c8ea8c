// Held out of the model's fit (tests/model/heldout/README.md).  Add first with
// 8-byte loads: thread t reads the adjacent pair (2t, 2t + 1) of the block's
// 2048 elements as one float2 (element by element in a last block that passes
// n) and stores their sum to shared memory; then sequential addressing.
__device__ float dev_sum = 0.0f;

__global__ void sumAddFirst(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float s_data[1024];
    unsigned int tx = threadIdx.x;
    unsigned int first = blockIdx.x * blockDim.x * 2;
    unsigned int i = first + 2 * tx;

    if (first + 2 * blockDim.x <= n) {
        float2 p = reinterpret_cast<const float2 *>(pData + first)[tx];
        s_data[tx] = p.x + p.y;
    } else {
        s_data[tx] = (i < n ? pData[i] : 0.0f) + (i + 1 < n ? pData[i + 1] : 0.0f);
    }
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tx < stride)
            s_data[tx] += s_data[tx + stride];
        __syncthreads();
    }
    if (tx == 0) atomicAdd(&dev_sum, s_data[0]);
}
