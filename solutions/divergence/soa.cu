// Reference for divergence/soa: the keys as one array of their own, so the 32
// threads of a warp read 128 consecutive bytes and nothing they do not use.
struct Record {
    int key;
    int value;
    int flag;
};

__global__ void keysFromArrays(const Record *recs, const int *keys, const int *values,
                               const int *flags, int *out, unsigned int n)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i < n)
        out[i] = 2 * keys[i] + 1;
}
