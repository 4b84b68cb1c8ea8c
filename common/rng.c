/*
 * rng.c - splitmix64 (Steele, Lea, Flood 2014), see rng.h.
 */
#include "common/rng.h"

void
lab_rng_seed(lab_rng *r, uint64_t seed)
{
    r->state = seed;
}

uint64_t
lab_rng_next(lab_rng *r)
{
    uint64_t z = (r->state += 0x9e3779b97f4a7c15ULL);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

uint32_t
lab_rng_below(lab_rng *r, uint32_t bound)
{
    /* Lemire's multiply-shift; the bias for our bounds (<= 2^16) is below 2^-16. */
    return (uint32_t)(((lab_rng_next(r) >> 32) * (uint64_t)bound) >> 32);
}
