/*
 * rng.h - seeded random inputs for the drivers.
 *
 * splitmix64: one 64-bit state, reproducible across machines, so the seed in
 * a report regenerates the exact inputs a grading used.
 */
#ifndef COMMON_RNG_H
#define COMMON_RNG_H

#include <stdint.h>

typedef struct lab_rng {
    uint64_t state;
} lab_rng;

void lab_rng_seed(lab_rng *r, uint64_t seed);
uint64_t lab_rng_next(lab_rng *r);
/* Uniform in [0, bound) for bound > 0. */
uint32_t lab_rng_below(lab_rng *r, uint32_t bound);

#endif
