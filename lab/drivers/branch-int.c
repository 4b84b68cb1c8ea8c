/*
 * branch-int.c - the driver for the long-branch family of the divergence
 * chapter (issue 37: divergence that costs time on today's GPUs):
 *
 *     __global__ void K(const int *in, int *out, unsigned int n)
 *
 * launched with grid = ceil(n / block).  Element i takes one of two long
 * chains of integer steps by its parity: out[i] = left(in[i]) for even i,
 * right(in[i]) for odd i (below, and word for word in the exercise's starter
 * and reference).  Integer steps, so the CPU's answer is the GPU's bit for
 * bit; each step mixes a shift into a multiply, so the compiler can neither
 * fold a chain into one operation nor predicate 64 of them: the branch stays
 * a branch in the SASS.  Which thread computes which element is the
 * exercise's business (one element per thread, each exactly once).
 *
 * Checks: every element of out for every size, out poisoned before each run,
 * a guard zone after it that must stay poisoned, in padded with poison past
 * n.  Timing: student and reference interleaved (8n bytes moved); the baseline is
 * the CPU computing the chains in index order on one core.
 */
#include "common/driver.h"
#include "common/rng.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define STEPS 64 /* the starter's LONG_STEPS */

typedef struct problem {
    lab_int_map m;
} problem;

/* The two sides of the branch, as the starter's leftPath and rightPath compute them. */
static uint32_t
left_path(uint32_t v)
{
    for (int s = 0; s < STEPS; s++)
        v = v * 1664525u + (v >> 13);
    return v;
}

static uint32_t
right_path(uint32_t v)
{
    for (int s = 0; s < STEPS; s++)
        v = (v ^ (v >> 15)) * 0x2C1B3C6Du + 0x3C6EF372u;
    return v;
}

static uint32_t
want(const void *ctx, size_t i)
{
    const problem *p = ctx;
    const uint32_t v = (uint32_t)p->m.in[i];

    return i % 2 == 0 ? left_path(v) : right_path(v);
}

static void
explain(const void *ctx, size_t i, uint32_t value, char *buf, size_t size)
{
    const problem *p = ctx;

    snprintf(buf, size, "%s(in[%zu] = %d) = %d", i % 2 == 0 ? "leftPath" : "rightPath", i,
             p->m.in[i], (int32_t)value);
}

static const lab_output_spec out_spec = { .want = want, .explain = explain, .name = "out" };

static int
setup(lab_driver *d, void *problem_, lab_size *size, lab_err *err)
{
    problem *p = problem_;

    return lab_int_map_setup(&p->m, d, size, &out_spec, err);
}

/* The CPU baseline: every element's chain, in index order, one core. */
static void
cpu_chains(void *ctx)
{
    const problem *p = ctx;
    volatile uint32_t sink;
    uint32_t mix = 0;

    for (size_t i = 0; i < p->m.w.n; i++)
        mix ^= i % 2 == 0 ? left_path((uint32_t)p->m.in[i]) : right_path((uint32_t)p->m.in[i]);
    sink = mix; /* kept, so the loop is not optimized away */
    (void)sink;
}

/* The CPU baseline's problem alone (--cpu-baseline-only): n inputs drawn as fill draws them, in
 * host memory; nothing on a device. */
static int
cpu_setup(lab_driver *d, void *problem_, lab_size *size, lab_rng *rng, lab_err *err)
{
    problem *p = problem_;

    p->m.w.d = d;
    p->m.w.n = size->n;
    size->bytes = 8.0 * (double)size->n;
    if (!(p->m.in = lab_driver_alloc(d, size->n, 4, err)))
        return err->code;
    for (size_t i = 0; i < size->n; i++)
        p->m.in[i] = (int32_t)lab_rng_below(rng, 1u << 30);
    return 0;
}

const lab_family_driver lab_driver_branch_int = {
    .problem_size = sizeof(problem),
    .setup = setup,
    .fill = lab_int_map_fill,
    .prepare = lab_words_prepare,
    .launch = lab_int_map_launch,
    .verify = lab_words_verify,
    .cpu = cpu_chains,
    .cpu_setup = cpu_setup,
};
