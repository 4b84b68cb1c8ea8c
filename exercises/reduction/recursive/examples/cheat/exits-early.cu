// expect: RUNTIME_ERROR (exit(0) before returning, as if the check could be skipped)
#include <stdlib.h>

int recursiveReduce(int *data, int const size)
{
    // no sum to check if the process is gone
    exit(0);
}
