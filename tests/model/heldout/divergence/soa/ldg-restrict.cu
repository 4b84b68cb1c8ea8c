// Held out of the model's fit (tests/model/heldout/README.md).  The keys read
// through the read-only data path (__ldg) from pointers the compiler may
// assume do not alias (__restrict__).
struct Record {
    int key;
    int value;
    int flag;
};

__global__ void keysFromArrays(const Record *__restrict__ recs, const int *__restrict__ keys,
                               const int *__restrict__ values, const int *__restrict__ flags,
                               int *__restrict__ out, unsigned int n)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i < n)
        out[i] = 2 * __ldg(&keys[i]) + 1;
}
