/*
 * shuffle-int.c - the driver for the shuffle family of the divergence chapter
 * (note 004's even-odd / half-by-half problem):
 *
 *     __global__ void K(const int *src, int *dst, unsigned int n)
 *
 * launched with grid = ceil(n / block), n even.  The even-numbered items of
 * src go, in order, to the left half of dst and the odd-numbered ones to the
 * right half: dst[i] = src[2i] for i < n/2, dst[n/2 + i] = src[2i + 1].
 * Whether a thread reads from the source's view (even-odd) or writes from the
 * destination's (half-by-half) is the exercise's business.
 *
 * Checks: every element of dst for every size, dst poisoned before each run,
 * a guard zone after it that must stay poisoned, src padded with poison past
 * n.  Timing: student, baseline and reference interleaved (8n bytes moved).
 */
#include "common/driver.h"
#include "common/rng.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define POISON_OUT 0x7EADBEEF
#define POISON_IN 0x5A5A5A5A
#define GUARD 1024

typedef struct problem {
    lab_words w; /* in[0]: src; out: dst */
    int32_t *src;
} problem;

static int
launch(void *ctx, lab_role role, lab_dim3 shape, lab_err *err)
{
    problem *p = ctx;
    unsigned int n = (unsigned int)p->w.n, block = p->w.d->args.block;
    lab_dim3 grid = { (n + block - 1) / block, 1, 1 };
    void *args[] = { &p->w.in[0].dev, &p->w.out.dev, &n };

    return lab_driver_launch(p->w.d, role, grid, shape, 0, args, err);
}

/* Even elements first, then odd: dst[i] = src[2i] in the first half, src[2(i - n/2) + 1] after. */
static size_t
source_of(const problem *p, size_t i)
{
    const size_t half = p->w.n / 2;

    return i < half ? 2 * i : 2 * (i - half) + 1;
}

static uint32_t
want(const void *ctx, size_t i)
{
    const problem *p = ctx;

    return (uint32_t)p->src[source_of(p, i)];
}

static void
explain(const void *ctx, size_t i, uint32_t value, char *buf, size_t size)
{
    snprintf(buf, size, "src[%zu] = %d", source_of(ctx, i), (int32_t)value);
}

static const lab_output_spec dst_spec = { .want = want, .explain = explain, .name = "dst" };

static int
setup(lab_driver *d, void *problem_, lab_size *size, lab_err *err)
{
    problem *p = problem_;
    const size_t words = size->n + GUARD;
    int rc;

    lab_words_setup(&p->w, d, size, 1, &dst_spec, 8.0); /* 4 bytes read, 4 written */
    if (size->n % 2)
        return lab_err_set(err, LAB_EINVAL, "size %lu is odd: this family needs even sizes",
                           size->n);
    if (!(p->src = lab_driver_alloc(d, words, 4, err)))
        return err->code;
    if ((rc = lab_driver_input(d, words * 4, &p->w.in[0], err)) < 0)
        return rc;
    return lab_driver_output(d, size->n, GUARD, POISON_OUT, &p->w.out, err);
}

static int
fill(void *problem_, lab_rng *rng, lab_err *err)
{
    problem *p = problem_;

    for (size_t i = 0; i < p->w.n + GUARD; i++)
        p->src[i] = i < p->w.n ? (int32_t)lab_rng_below(rng, 1u << 30) : POISON_IN;
    return lab_driver_input_set(p->w.d, &p->w.in[0], p->src, err);
}

const lab_family_driver lab_driver_shuffle_int = {
    .problem_size = sizeof(problem),
    .setup = setup,
    .fill = fill,
    .prepare = lab_words_prepare,
    .launch = launch,
    .verify = lab_words_verify,
};
