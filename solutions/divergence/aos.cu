// Reference for divergence/aos: each thread reads the key of its own record
// from the array of structures, 12 bytes apart from its neighbour's.
struct Record {
    int key;
    int value;
    int flag;
};

__global__ void keysFromRecords(const Record *recs, const int *keys, const int *values,
                                const int *flags, int *out, unsigned int n)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i < n)
        out[i] = 2 * recs[i].key + 1;
}
