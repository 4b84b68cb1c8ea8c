// Held out of the model's fit (tests/model/heldout/README.md).  Every even
// thread reads its pair of elements as one float2 and adds their sum into the
// global float: half the atomics of one per element.
__device__ float dev_sum = 0.0f;

__global__ void sumAtomic(const float *pData, float *pPartial, unsigned int n) {
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i % 2 != 0 || i >= n)
        return;
    if (i + 1 < n) {
        float2 p = reinterpret_cast<const float2 *>(pData)[i / 2];
        atomicAdd(&dev_sum, p.x + p.y);
    } else {
        atomicAdd(&dev_sum, pData[i]);
    }
}
