// Held out of the model's fit (tests/model/heldout/README.md).  The map with
// two loads in flight per thread (the grid-stride loop unrolled by two, the
// input read through __ldg); blocks of 1024 threads.
__device__ unsigned int chosenBlockX = 1024;

#define TABLE 10240 // ints: 40 KiB of shared memory per block

__global__ void mapThroughTable(const int *__restrict__ in, const int *__restrict__ table,
                                int *__restrict__ out, unsigned int n)
{
    __shared__ int lut[TABLE];

    for (unsigned int i = threadIdx.x; i < TABLE; i += blockDim.x)
        lut[i] = __ldg(&table[i]);
    __syncthreads();

    unsigned int stride = gridDim.x * blockDim.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + stride < n; i += 2 * stride) {
        unsigned int a = (unsigned int)__ldg(&in[i]);
        unsigned int b = (unsigned int)__ldg(&in[i + stride]);
        out[i] = lut[a % TABLE];
        out[i + stride] = lut[b % TABLE];
    }
    if (i < n)
        out[i] = lut[(unsigned int)__ldg(&in[i]) % TABLE];
}
