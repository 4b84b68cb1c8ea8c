// expect: WRONG (the loop starts at i = 1: the first pair, data[0] + data[stride], is never added)
int recursiveReduce(int *data, int const size)
{
    if (size == 1)
        return data[0];

    int const stride = size / 2;

    if (size % 2)
        data[0] += data[size - 1];
    for (int i = 1; i < stride; i++)
        data[i] += data[i + stride];

    return recursiveReduce(data, stride);
}
