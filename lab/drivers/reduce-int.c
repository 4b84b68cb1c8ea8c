/*
 * reduce-int.c - the driver for the integer reduction family:
 *
 *     __global__ void K(int *g_idata, int *g_odata, unsigned int n)
 *
 * Two launch shapes share the signature (lab/harness/driver.h lab_shape):
 *  - partials (the notes' ladder, Neighbored ... CompleteUnroll): grid =
 *    ceil(n / (block * unroll)); block b reduces the elements
 *    [b*block*unroll, (b+1)*block*unroll) of g_idata (in place, it may
 *    overwrite them) and writes their sum to g_odata[b];
 *  - total (the single-pass kernel past the notes): grid = K blocks per SM
 *    with a grid-stride loop; the kernel adds the whole sum into g_odata[0],
 *    which is zeroed before every run.
 * Student and reference share a shape; the baseline (the step before) has its
 * own, so every role gets its own grid and expected sums.
 *
 * Checks: every block's partial sum (or the total), exactly (32-bit
 * wrap-around, as the GPU adds), for every size; the input is padded past n
 * with poison so a kernel that reads beyond n gets a wrong sum; g_odata is
 * poisoned before each run and has a guard zone after the grid that must stay
 * untouched.  The CPU baseline is the notes' recursiveReduce (made correct
 * for any n).
 */
#include "lab/harness/driver.h"
#include "lab/harness/report.h"
#include "lab/harness/rng.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POISON_OUT 0xDEADBEEFu /* g_odata before a run */
#define POISON_IN 0x00100001u  /* g_idata past n: changes any sum it enters */
#define GUARD 64               /* ints after the grid in g_odata */
#define SLACK 1024             /* poisoned ints past n for grid-stride kernels */

/* One role's launch at one size. */
typedef struct layout {
    unsigned grid;
    size_t per_block; /* elements per block; 0 for a grid-stride kernel */
    bool total;
    size_t out_words;   /* results + GUARD */
    uint32_t *expected; /* per block, or [0] = the total */
} layout;

typedef struct problem {
    lab_driver *d;
    unsigned long n;
    size_t padded; /* elements in g_idata: n and its poisoned padding */
    uint32_t *input;
    uint32_t *got; /* the largest out_words */
    layout lay[LAB_ROLE_COUNT];
    lab_dptr d_in, d_pristine, d_out, d_zero;
} problem;

typedef struct timed {
    lab_driver *d;
    problem *p;
    lab_role role;
} timed;

/* The notes' recursiveReduce, with the odd element folded in so any size works. */
static uint32_t
recursive_reduce(uint32_t *data, size_t size)
{
    while (size > 1) {
        size_t stride = size / 2;
        if (size % 2)
            data[0] += data[size - 1];
        for (size_t i = 0; i < stride; i++)
            data[i] += data[i + stride];
        size = stride;
    }
    return data[0];
}

static size_t
round_up(size_t v, size_t to)
{
    return (v + to - 1) / to * to;
}

static int
layout_init(layout *l, lab_driver *d, lab_role role, unsigned long n, lab_err *err)
{
    const lab_shape *sh = &d->args.shape[role];

    l->total = sh->total;
    if (sh->grid_per_sm) {
        l->grid = sh->grid_per_sm * (unsigned)(d->info.sm_count > 0 ? d->info.sm_count : 1);
        l->per_block = 0;
    } else {
        l->per_block = (size_t)sh->block * sh->unroll;
        l->grid = (unsigned)((n + l->per_block - 1) / l->per_block);
    }
    l->out_words = (l->total ? 1 : l->grid) + GUARD;
    return (l->expected = lab_driver_alloc(d, l->total ? 1 : l->grid, sizeof(uint32_t), err))
               ? 0
               : err->code;
}

/* A role's expected results: the sum of each block's elements, or the total. */
static void
expect_sums(layout *l, const uint32_t *input, size_t n)
{
    const size_t per_block = l->total || !l->per_block ? n : l->per_block;

    for (size_t b = 0, first = 0; first < n; b++, first += per_block) {
        const size_t end = first + per_block < n ? first + per_block : n;
        uint32_t sum = 0;
        for (size_t i = first; i < end; i++)
            sum += input[i];
        l->expected[b] = sum;
    }
}

static int
setup(lab_driver *d, void *problem_, lab_size *size, lab_err *err)
{
    const unsigned long n = size->n;
    lab_rng *rng = size->rng;
    problem *p = problem_;
    size_t out_words = 0;
    int rc;

    p->d = d;
    p->n = n;
    p->padded = round_up(n, SLACK) + SLACK;
    for (int r = 0; r < LAB_ROLE_COUNT; r++) {
        layout *l = &p->lay[r];
        if ((rc = layout_init(l, d, (lab_role)r, n, err)) < 0)
            return rc;
        if (l->per_block && (size_t)l->grid * l->per_block > p->padded)
            p->padded = (size_t)l->grid * l->per_block;
        out_words = l->out_words > out_words ? l->out_words : out_words;
    }
    if (!(p->input = lab_driver_alloc(d, p->padded, sizeof(uint32_t), err)) ||
        !(p->got = lab_driver_alloc(d, out_words, sizeof(uint32_t), err)))
        return err->code;
    lab_rng_fill_bytes(rng, p->input, n);
    for (size_t i = n; i < p->padded; i++)
        p->input[i] = POISON_IN;
    for (int r = 0; r < LAB_ROLE_COUNT; r++)
        expect_sums(&p->lay[r], p->input, n);
    if ((rc = d->ops->alloc(d->dev, p->padded * sizeof(uint32_t), &p->d_in, err)) < 0 ||
        (rc = d->ops->alloc(d->dev, out_words * sizeof(uint32_t), &p->d_out, err)) < 0)
        return rc;
    return 0;
}

static int
launch(lab_driver *d, problem *p, lab_role role, lab_err *err)
{
    unsigned int n = (unsigned int)p->n;
    void *args[] = { &p->d_in, &p->d_out, &n };
    lab_dim3 grid = { p->lay[role].grid, 1, 1 }, block = { d->args.shape[role].block, 1, 1 };

    return lab_driver_launch(d, role, grid, block, 0, args, err);
}

/* Compares one role's results with its expected sums; bad results counted, the first described. */
static size_t
compare(const problem *p, const layout *l, long *first_bad, char *detail, size_t len)
{
    const size_t results = l->total ? 1 : l->grid;
    size_t bad = 0;

    for (size_t b = 0; b < results; b++) {
        if (p->got[b] == l->expected[b] || bad++)
            continue;
        *first_bad = (long)b;
        if (l->total)
            snprintf(detail, len, "g_odata[0]: expected the sum %d, got %d", (int)l->expected[0],
                     (int)p->got[0]);
        else if (p->got[b] == POISON_OUT)
            snprintf(detail, len, "g_odata[%zu] was never written (block %zu)", b, b);
        else
            snprintf(detail, len, "block %zu (elements %zu..%zu): expected %d, got %d", b,
                     b * l->per_block,
                     ((b + 1) * l->per_block < p->n ? (b + 1) * l->per_block : p->n) - 1,
                     (int)l->expected[b], (int)p->got[b]);
    }
    for (size_t i = results; i < l->out_words && !bad; i++)
        if (p->got[i] != POISON_OUT) {
            bad = 1;
            snprintf(detail, len, "wrote g_odata[%zu], past the %zu result%s", i, results,
                     results == 1 ? "" : "s");
        }
    return bad;
}

/* Run one role once at this size and record the case (every role has its own block, from its
 * shape, not the block shape of the check). Returns <0 when the device failed. */
static int
check(void *ctx, lab_role role, lab_dim3 shape, lab_err *err)
{
    problem *p = ctx;
    lab_driver *d = p->d;
    const layout *l = &p->lay[role];
    const size_t results = l->total ? 1 : l->grid;
    uint32_t total_expected = 0, total_got = 0;
    long first_bad = -1;
    size_t bad;
    char detail[256] = "";
    int rc;

    (void)shape;
    for (size_t i = 0; i < l->out_words; i++)
        p->got[i] = POISON_OUT;
    if (l->total)
        p->got[0] = 0;
    if ((rc = d->ops->copy_in(d->dev, p->d_in, p->input, p->padded * 4, err)) < 0 ||
        (rc = d->ops->copy_in(d->dev, p->d_out, p->got, l->out_words * 4, err)) < 0)
        return lab_driver_fail(d, role, "setup", p->n, err);
    if ((rc = launch(d, p, role, err)) < 0)
        return lab_driver_fail(d, role, "launch", p->n, err);
    if ((rc = d->ops->sync(d->dev, err)) < 0)
        return lab_driver_fail(d, role, "run", p->n, err);
    if ((rc = d->ops->copy_out(d->dev, p->got, p->d_out, l->out_words * 4, err)) < 0)
        return lab_driver_fail(d, role, "run", p->n, err);
    for (size_t b = 0; b < results; b++) {
        total_expected += l->expected[b];
        total_got += p->got[b];
    }
    bad = compare(p, l, &first_bad, detail, sizeof(detail));
    return lab_driver_add_case(d, p->n, role, l->grid, (int32_t)total_expected, (int32_t)total_got,
                               bad, first_bad, detail, err);
}

/* Untimed: the input restored, and a total's g_odata[0] zeroed. */
static int
timed_prepare(void *ctx, lab_err *err)
{
    timed *t = ctx;
    const lab_dev_ops *ops = t->d->ops;
    int rc;

    if ((rc = ops->copy_dtod(t->d->dev, t->p->d_in, t->p->d_pristine, t->p->padded * 4, err)) < 0)
        return rc;
    return t->p->lay[t->role].total ? ops->copy_dtod(t->d->dev, t->p->d_out, t->p->d_zero, 4, err)
                                    : 0;
}

static int
timed_launch(void *ctx, lab_err *err)
{
    timed *t = ctx;

    return launch(t->d, t->p, t->role, err);
}

/* The CPU baseline's working copy: the input restored before each (untimed) run. */
typedef struct cpu_run {
    const problem *p;
    uint32_t *work;
} cpu_run;

static void
cpu_restore(void *ctx)
{
    cpu_run *c = ctx;

    memcpy(c->work, c->p->input, c->p->n * sizeof(uint32_t));
}

static void
cpu_reduce(void *ctx)
{
    cpu_run *c = ctx;

    recursive_reduce(c->work, c->p->n);
}

static int
time_size(lab_driver *d, void *problem_, lab_err *err)
{
    problem *p = problem_;
    const layout *sl = &p->lay[LAB_ROLE_STUDENT];
    const uint32_t zero = 0;
    timed ctx[LAB_ROLE_COUNT];
    cpu_run cpu = { p, NULL };
    lab_size_timing st = { .n = p->n,
                           .bytes = (double)p->n * 4 + (sl->total ? 4.0 : (double)sl->grid * 4),
                           .prepare = timed_prepare,
                           .launch = timed_launch };
    int rc;

    if ((rc = d->ops->alloc(d->dev, p->padded * 4, &p->d_pristine, err)) < 0 ||
        (rc = d->ops->copy_in(d->dev, p->d_pristine, p->input, p->padded * 4, err)) < 0 ||
        (rc = d->ops->alloc(d->dev, sizeof(zero), &p->d_zero, err)) < 0 ||
        (rc = d->ops->copy_in(d->dev, p->d_zero, &zero, sizeof(zero), err)) < 0)
        return lab_driver_fail(d, LAB_ROLE_STUDENT, "timing", p->n, err);
    for (int r = 0; r < LAB_ROLE_COUNT; r++) {
        ctx[r] = (timed){ d, p, (lab_role)r };
        st.ctx[r] = &ctx[r];
    }
    if (!lab_driver_is_gpu_role(d, LAB_ROLE_BASELINE) &&
        (cpu.work = lab_driver_alloc(d, p->n, sizeof(uint32_t), err))) {
        st.cpu_restore = cpu_restore;
        st.cpu = cpu_reduce;
        st.cpu_ctx = &cpu;
    }
    return lab_driver_time_size(d, &st, err);
}

const lab_family_driver lab_driver_reduce_int = {
    .problem_size = sizeof(problem),
    .setup = setup,
    .check = check,
    .time = time_size,
};
