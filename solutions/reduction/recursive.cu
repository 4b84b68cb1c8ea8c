// Reference for step 1: interleaved pairs on the CPU, correct for every size >= 1.
// An odd size leaves its last element without a partner; it is folded into data[0]
// before the halving, so nothing is dropped.

int recursiveReduce(int *data, int const size)
{
    if (size == 1)
        return data[0];

    int const stride = size / 2;

    if (size % 2)
        data[0] += data[size - 1];
    for (int i = 0; i < stride; i++)
        data[i] += data[i + stride];

    return recursiveReduce(data, stride);
}
