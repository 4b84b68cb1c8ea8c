// Held out of the model's fit (tests/model/heldout/README.md).  Two keys per
// even thread, read as one int2 and written as one; the odd tail (n odd) by
// the last even thread alone.
struct Record {
    int key;
    int value;
    int flag;
};

__global__ void keysFromArrays(const Record *recs, const int *keys, const int *values,
                               const int *flags, int *out, unsigned int n)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i % 2 != 0 || i >= n)
        return;
    if (i + 1 < n) {
        int2 k = reinterpret_cast<const int2 *>(keys)[i / 2];
        reinterpret_cast<int2 *>(out)[i / 2] = make_int2(2 * k.x + 1, 2 * k.y + 1);
    } else {
        out[i] = 2 * keys[i] + 1;
    }
}
