// expect: WRONG (never reads its input: adds a guess)
__device__ float dev_sum = 0.0f;

__global__ void sumAtomic(const float *pData, float *pPartial, unsigned int n) {
    // the inputs have mean zero, so "0" is a good guess -- but not the sum
    if (blockIdx.x == 0 && threadIdx.x == 0) atomicAdd(&dev_sum, 0.0f);
}
