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
#include "lab/harness/driver.h"
#include "lab/harness/rng.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define POISON_OUT 0x7EADBEEF
#define POISON_IN 0x5A5A5A5A
#define GUARD 1024

typedef struct problem {
    lab_driver *d;
    unsigned long n;
    size_t words; /* n + GUARD */
    int32_t *src, *got;
    lab_dptr d_src, d_dst;
} problem;

static int
launch(void *ctx, lab_role role, lab_dim3 shape, lab_err *err)
{
    problem *p = ctx;
    unsigned int n = (unsigned int)p->n, block = p->d->args.block;
    lab_dim3 grid = { (unsigned)((p->n + block - 1) / block), 1, 1 };
    void *args[] = { &p->d_src, &p->d_dst, &n };

    return lab_driver_launch(p->d, role, grid, shape, 0, args, err);
}

static int
check(void *ctx, lab_role role, lab_dim3 shape, lab_err *err)
{
    problem *p = ctx;
    lab_driver *d = p->d;
    const size_t half = p->n / 2;
    char detail[256] = "";
    size_t bad = 0;
    long first_bad = -1;
    int rc;

    if ((rc = lab_driver_run_poisoned(d, role, p->n, shape, launch, p, p->d_dst, (uint32_t *)p->got,
                                      p->words, POISON_OUT, err)) < 0)
        return rc;
    for (size_t i = 0; i < p->words; i++) {
        int32_t want = i < half   ? p->src[2 * i]
                       : i < p->n ? p->src[2 * (i - half) + 1]
                                  : POISON_OUT;
        if (p->got[i] == want || bad++)
            continue;
        first_bad = (long)i;
        if (i >= p->n)
            snprintf(detail, sizeof(detail), "wrote dst[%zu], past n = %lu", i, p->n);
        else if (p->got[i] == POISON_OUT)
            snprintf(detail, sizeof(detail), "dst[%zu] was never written", i);
        else
            snprintf(detail, sizeof(detail), "dst[%zu] = %d, expected src[%zu] = %d", i, p->got[i],
                     i < half ? 2 * i : 2 * (i - half) + 1, want);
    }
    return lab_driver_add_case(d, p->n, role, (p->n + d->args.block - 1) / d->args.block,
                               (double)p->n, (double)(p->n - (bad < p->n ? bad : p->n)), bad,
                               first_bad, detail, err);
}

static int
setup(lab_driver *d, void *problem_, lab_size *size, lab_err *err)
{
    const unsigned long n = size->n;
    lab_rng *rng = size->rng;
    problem *p = problem_;
    int rc;

    *p = (problem){ .d = d, .n = n, .words = n + GUARD };
    size->bytes = 8.0 * (double)n;
    if (n % 2)
        return lab_err_set(err, LAB_EINVAL, "size %lu is odd: this family needs even sizes", n);
    if (!(p->src = lab_driver_alloc(d, p->words, 4, err)) ||
        !(p->got = lab_driver_alloc(d, p->words, 4, err)))
        return err->code;
    for (size_t i = 0; i < p->words; i++)
        p->src[i] = i < n ? (int32_t)lab_rng_below(rng, 1u << 30) : POISON_IN;
    if ((rc = d->ops->alloc(d->dev, p->words * 4, &p->d_src, err)) < 0 ||
        (rc = d->ops->alloc(d->dev, p->words * 4, &p->d_dst, err)) < 0 ||
        (rc = d->ops->copy_in(d->dev, p->d_src, p->src, p->words * 4, err)) < 0)
        return rc;
    return 0;
}

const lab_family_driver lab_driver_shuffle_int = {
    .problem_size = sizeof(problem),
    .setup = setup,
    .check = check,
    .launch = launch,
};
