// divergence/aos: out[i] = 2 * key + 1 for each of n records, reading the
// records as an array of structures (recs).  The lab launches ceil(n / 512)
// blocks of 512 threads; the other layout (keys, values, flags) is for the
// next exercise.
struct Record {
    int key;
    int value;
    int flag;
};

// This version forgets that the grid has more threads than records.
__global__ void keysFromRecords(const Record *recs, const int *keys, const int *values,
                                const int *flags, int *out, unsigned int n)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

    out[i] = 2 * recs[i].key + 1;
}
