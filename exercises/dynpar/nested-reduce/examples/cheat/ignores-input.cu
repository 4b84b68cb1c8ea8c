// expect: WRONG (never reads its input: writes a sum it guesses)
__global__ void nestedReduce(int *g_idata, int *g_odata, unsigned int n)
{
    // the block's sum, guessed: as if every element were 1
    unsigned int base = blockIdx.x * blockDim.x;

    if (threadIdx.x == 0) g_odata[blockIdx.x] = (int)(n - base < blockDim.x ? n - base : blockDim.x);
}
