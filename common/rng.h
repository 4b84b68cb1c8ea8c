/*
 * rng.h - seeded random inputs for the drivers.
 *
 * splitmix64: one 64-bit state, reproducible across machines, so the seed in
 * a report regenerates the exact inputs a grading used.
 */
#ifndef LAB_HARNESS_RNG_H
#define LAB_HARNESS_RNG_H

#include <stddef.h>
#include <stdint.h>

typedef struct lab_rng {
    uint64_t state;
} lab_rng;

void lab_rng_seed(lab_rng *r, uint64_t seed);
uint64_t lab_rng_next(lab_rng *r);
/* Uniform in [0, bound) for bound > 0. */
uint32_t lab_rng_below(lab_rng *r, uint32_t bound);
/* out[0..n) uniform in 0..255, as the notes' rand() & 0xFF: eight values per draw. */
void lab_rng_fill_bytes(lab_rng *r, uint32_t *out, size_t n);

#endif
