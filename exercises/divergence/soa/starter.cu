// divergence/soa: the same result as divergence/aos, out[i] = 2 * key + 1,
// graded on speed against it.  The same records are also on the device as a
// structure of arrays: keys[i], values[i] and flags[i] are record i's fields.
struct Record {
    int key;
    int value;
    int flag;
};

// This starter still reads the array of structures: correct, and as slow as the baseline.
__global__ void keysFromArrays(const Record *recs, const int *keys, const int *values,
                               const int *flags, int *out, unsigned int n)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i < n)
        out[i] = 2 * recs[i].key + 1;
}
