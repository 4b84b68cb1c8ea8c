// Held out of the model's fit (tests/model/heldout/README.md).  Half-by-half
// through a padded tile: item i sits at tile[i + i / 32], so the stride-two
// reads of the second phase (items 2k and 2k + 1) fall in different banks
// instead of two to a bank.
#define BLOCK 512
#define PAD(i) ((i) + (i) / 32)

__global__ void shuffleHalfHalfShared(const int *src, int *dst, unsigned int n)
{
    __shared__ int tile[BLOCK + BLOCK / 32];
    unsigned int tid = threadIdx.x;
    unsigned int base = blockIdx.x * blockDim.x;
    unsigned int count = n - base < blockDim.x ? n - base : blockDim.x;
    unsigned int half = count / 2;

    if (tid < count)
        tile[PAD(tid)] = src[base + tid];
    __syncthreads();
    if (tid < half)
        dst[base / 2 + tid] = tile[PAD(2 * tid)];
    else if (tid < count)
        dst[n / 2 + base / 2 + (tid - half)] = tile[PAD(2 * (tid - half) + 1)];
}
