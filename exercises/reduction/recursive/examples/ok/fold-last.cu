// expect: PASS (the odd element folded into data[stride - 1] instead of data[0])
int recursiveReduce(int *data, int const size)
{
    if (size == 1)
        return data[0];

    int const stride = size / 2;

    if (size % 2)
        data[stride - 1] += data[size - 1];
    for (int i = 0; i < stride; i++)
        data[i] += data[i + stride];

    return recursiveReduce(data, stride);
}
