// expect: WRONG (the notes' form: an odd size's last element is never added)
int recursiveReduce(int *data, int const size)
{
    if (size == 1)
        return data[0];

    int const stride = size / 2;

    for (int i = 0; i < stride; i++)
        data[i] += data[i + stride];

    return recursiveReduce(data, stride);
}
