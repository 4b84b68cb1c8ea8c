// Step 1: the CPU reduction of the course notes, with interleaved pairs.
// The lab calls recursiveReduce(data, size) and checks the value it returns.
// It is correct when size is a power of two; make it correct for every size >= 1.

int recursiveReduce(int *data, int const size)
{
    // terminate check
    if (size == 1)
        return data[0];

    // renew the stride
    int const stride = size / 2;

    // in-place reduction
    for (int i = 0; i < stride; i++) {
        data[i] += data[i + stride];
    }

    // call recursively
    return recursiveReduce(data, stride);
}
