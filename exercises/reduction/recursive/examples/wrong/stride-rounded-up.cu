// expect: WRONG (stride = (size + 1) / 2 without the fold: the last pair reads past size)
int recursiveReduce(int *data, int const size)
{
    if (size == 1)
        return data[0];

    int const stride = (size + 1) / 2;

    for (int i = 0; i < stride; i++)
        data[i] += data[i + stride];

    return recursiveReduce(data, stride);
}
