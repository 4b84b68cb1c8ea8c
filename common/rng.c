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

void
lab_rng_fill_bytes(lab_rng *r, uint32_t *out, size_t n)
{
    size_t i = 0;

    while (i < n) {
        uint64_t bits = lab_rng_next(r);
        for (int k = 0; k < 8 && i < n; k++, bits >>= 8)
            out[i++] = (uint32_t)(bits & 0xFF);
    }
}

uint32_t
lab_rng_below(lab_rng *r, uint32_t bound)
{
    /* Lemire's multiply-shift; the bias for our bounds (<= 2^16) is below 2^-16. */
    return (uint32_t)(((lab_rng_next(r) >> 32) * (uint64_t)bound) >> 32);
}
