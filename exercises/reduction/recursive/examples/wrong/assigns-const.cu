// expect: COMPILE_ERROR (assigns to the const size)
int recursiveReduce(int *data, int const size)
{
    if (size == 1)
        return data[0];

    int const stride = size / 2;

    if (size % 2) {
        data[0] += data[size - 1];
        size = size - 1;
    }
    for (int i = 0; i < stride; i++)
        data[i] += data[i + stride];

    return recursiveReduce(data, stride);
}
