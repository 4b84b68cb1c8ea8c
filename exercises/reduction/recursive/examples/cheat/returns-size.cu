// expect: WRONG (never reads data: returns a guess)
int recursiveReduce(int *data, int const size)
{
    // as if every element were 1
    return size;
}
