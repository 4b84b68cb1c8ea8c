/*
 * clock.c - see clock.h.
 */
#include "lab/util/clock.h"

#include <time.h>

double
lab_clock_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
