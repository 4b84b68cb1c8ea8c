// Held out of the model's fit (tests/model/heldout/README.md).  The keys'
// array read 16 bytes at a time: every fourth thread loads four keys as one
// int4 and writes four results; the tail past the last whole int4 one by one.
struct Record {
    int key;
    int value;
    int flag;
};

__global__ void keysFromArrays(const Record *recs, const int *keys, const int *values,
                               const int *flags, int *out, unsigned int n)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i % 4 != 0 || i >= n)
        return;
    if (i + 3 < n) {
        int4 k = reinterpret_cast<const int4 *>(keys)[i / 4];
        int4 r = make_int4(2 * k.x + 1, 2 * k.y + 1, 2 * k.z + 1, 2 * k.w + 1);
        reinterpret_cast<int4 *>(out)[i / 4] = r;
    } else {
        for (unsigned int j = i; j < n; j++)
            out[j] = 2 * keys[j] + 1;
    }
}
