// Held out of the model's fit (tests/model/heldout/README.md).  The table
// copied into shared memory 16 bytes at a time (int4), then the map with one
// load in flight per thread; blocks of 1024 threads (two per SM: half the
// table copies of four blocks of 512).
__device__ unsigned int chosenBlockX = 1024;

#define TABLE 10240 // ints: 40 KiB of shared memory per block

__global__ void mapThroughTable(const int *in, const int *table, int *out, unsigned int n)
{
    __shared__ int4 lut4[TABLE / 4];
    const int *lut = reinterpret_cast<const int *>(lut4);

    for (unsigned int i = threadIdx.x; i < TABLE / 4; i += blockDim.x)
        lut4[i] = reinterpret_cast<const int4 *>(table)[i];
    __syncthreads();

    unsigned int stride = gridDim.x * blockDim.x;
#pragma unroll 1
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = lut[(unsigned int)in[i] % TABLE];
}
