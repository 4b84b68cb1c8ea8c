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

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct problem {
    lab_int_map m; /* in: src; out: dst */
} problem;

/* Even elements first, then odd: dst[i] = src[2i] in the first half, src[2(i - n/2) + 1] after. */
static size_t
source_of(const problem *p, size_t i)
{
    const size_t half = p->m.w.n / 2;

    return i < half ? 2 * i : 2 * (i - half) + 1;
}

static uint32_t
want(const void *ctx, size_t i)
{
    const problem *p = ctx;

    return (uint32_t)p->m.in[source_of(p, i)];
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

    if (size->n % 2)
        return lab_err_set(err, LAB_EINVAL, "size %lu is odd: this family needs even sizes",
                           size->n);
    return lab_int_map_setup(&p->m, d, size, &dst_spec, err);
}

const lab_family_driver lab_driver_shuffle_int = {
    .problem_size = sizeof(problem),
    .setup = setup,
    .fill = lab_int_map_fill,
    .prepare = lab_words_prepare,
    .launch = lab_int_map_launch,
    .verify = lab_words_verify,
};
