// expect: WRONG (never reads its input: writes a guess for every block's sum)
__global__ void sumTwoLevel(const float *pData, float *pPartial, unsigned int n) {
    // the inputs have mean zero, so 0 is a good guess -- but not the sum
    if (threadIdx.x == 0) pPartial[blockIdx.x] = 0.0f;
}
