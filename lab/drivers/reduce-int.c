/*
 * reduce-int.c - the driver for the integer reduction family:
 *
 *     __global__ void K(int *g_idata, int *g_odata, unsigned int n)
 *
 * Two launch shapes share the signature (common/driver.h lab_shape):
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
 * for any n), on a copy of the input restored before each run; alone
 * (--cpu-baseline-only), on random ints of its own.
 */
#include "common/devgen.h"
#include "common/driver.h"
#include "common/report.h"
#include "common/rng.h"

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
    bool shared;        /* the same as an earlier role's: expected is that role's */
} layout;

typedef struct problem {
    lab_driver *d;
    unsigned long n;
    size_t padded; /* elements in g_idata: n and its poisoned padding */
    uint32_t *input;
    uint32_t *got;  /* the largest out_words */
    uint32_t *work; /* the CPU baseline's copy of the input, or NULL */
    layout lay[LAB_ROLE_COUNT];
    lab_input in;
    lab_dptr d_out;
    lab_dptr d_sums; /* the expected sums made on the device (common/devgen.h), or 0 */
} problem;

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

/* A role's layout; one that repeats an earlier role's (the reference is the student's, and
 * the baseline often too) shares its expected sums, which are then summed once per fill. */
static int
layout_init(layout *l, const layout *earlier, size_t nearlier, lab_driver *d, lab_role role,
            unsigned long n, lab_err *err)
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
    for (size_t i = 0; i < nearlier; i++)
        if (earlier[i].total == l->total && earlier[i].per_block == l->per_block &&
            earlier[i].grid == l->grid) {
            l->expected = earlier[i].expected;
            l->shared = true;
            return 0;
        }
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
    problem *p = problem_;
    size_t out_words = 0;
    int rc;

    p->d = d;
    p->n = n;
    p->padded = round_up(n, SLACK) + SLACK;
    for (int r = 0; r < LAB_ROLE_COUNT; r++) {
        layout *l = &p->lay[r];
        if ((rc = layout_init(l, p->lay, (size_t)r, d, (lab_role)r, n, err)) < 0)
            return rc;
        if (l->per_block && (size_t)l->grid * l->per_block > p->padded)
            p->padded = (size_t)l->grid * l->per_block;
        out_words = l->out_words > out_words ? l->out_words : out_words;
    }
    size->bytes =
        (double)n * 4 +
        (p->lay[LAB_ROLE_STUDENT].total ? 4.0 : (double)p->lay[LAB_ROLE_STUDENT].grid * 4);
    if (!(p->input = lab_driver_alloc(d, p->padded, sizeof(uint32_t), err)) ||
        !(p->got = lab_driver_alloc(d, out_words, sizeof(uint32_t), err)) ||
        (d->args.module[LAB_ROLE_BASELINE] && !strcmp(d->args.module[LAB_ROLE_BASELINE], "cpu") &&
         !(p->work = lab_driver_alloc(d, n, sizeof(uint32_t), err))))
        return err->code;
    if ((rc = lab_driver_input(d, p->padded * sizeof(uint32_t), &p->in, err)) < 0)
        return rc;
    if (lab_devgen_ready(d) &&
        (rc = d->ops->alloc(d->dev, out_words * sizeof(uint32_t), &p->d_sums, err)) < 0)
        return rc;
    return d->ops->alloc(d->dev, out_words * sizeof(uint32_t), &p->d_out, err);
}

/* The input and every role's expected sums made by the lab's kernels; the host gets the sums,
 * and the input only for the CPU baseline. */
static int
fill_on_device(problem *p, lab_rng *rng, lab_err *err)
{
    lab_driver *d = p->d;
    int rc;

    if ((rc = lab_devgen_bytes(d, p->in.pristine, p->n, p->padded, lab_rng_next(rng), POISON_IN,
                               err)) < 0)
        return rc;
    for (int r = 0; r < LAB_ROLE_COUNT; r++) {
        layout *l = &p->lay[r];
        if (!l->shared &&
            (rc = lab_devgen_sums(d, p->in.pristine, p->n, l->total ? 0 : l->per_block, p->d_sums,
                                  l->expected, l->total ? 1 : l->grid, err)) < 0)
            return rc;
    }
    if (p->work &&
        (rc = d->ops->copy_out(d->dev, p->input, p->in.pristine, p->n * sizeof(uint32_t), err)) < 0)
        return rc;
    return lab_driver_input_restore(d, &p->in, err);
}

static int
fill(void *problem_, lab_rng *rng, lab_err *err)
{
    problem *p = problem_;

    if (p->d_sums)
        return fill_on_device(p, rng, err);
    lab_rng_fill_bytes(rng, p->input, p->n);
    for (size_t i = p->n; i < p->padded; i++)
        p->input[i] = POISON_IN;
    for (int r = 0; r < LAB_ROLE_COUNT; r++)
        if (!p->lay[r].shared)
            expect_sums(&p->lay[r], p->input, p->n);
    return lab_driver_input_set(p->d, &p->in, p->input, err);
}

/* The input restored (the kernel may overwrite it), g_odata poisoned, a total's g_odata[0]
 * zeroed. */
static int
prepare(void *ctx, lab_role role, lab_dim3 shape, lab_err *err)
{
    problem *p = ctx;
    const layout *l = &p->lay[role];
    int rc;

    (void)shape;
    if ((rc = lab_driver_input_restore(p->d, &p->in, err)) < 0 ||
        (rc = lab_dev_fill32(p->d->ops, p->d->dev, p->d_out, POISON_OUT, l->out_words, err)) < 0)
        return rc;
    return l->total ? lab_dev_fill32(p->d->ops, p->d->dev, p->d_out, 0, 1, err) : 0;
}

/* Every role runs at its own block, from its shape, not the block shape of the check. */
static int
launch(void *ctx, lab_role role, lab_dim3 shape, lab_err *err)
{
    problem *p = ctx;
    unsigned int n = (unsigned int)p->n;
    void *args[] = { &p->in.dev, &p->d_out, &n };
    lab_dim3 grid = { p->lay[role].grid, 1, 1 }, block = { p->d->args.shape[role].block, 1, 1 };

    (void)shape;
    return lab_driver_launch(p->d, role, grid, block, 0, args, err);
}

/* One role's results against its expected sums; bad results counted, the first described. */
static int
verify(void *ctx, lab_role role, lab_dim3 shape, lab_finding *out, lab_err *err)
{
    problem *p = ctx;
    const layout *l = &p->lay[role];
    const size_t results = l->total ? 1 : l->grid;
    uint32_t total_expected = 0, total_got = 0;
    size_t bad = 0;
    int rc;

    (void)shape;
    if ((rc = p->d->ops->copy_out(p->d->dev, p->got, p->d_out, l->out_words * 4, err)) < 0)
        return rc;
    out->first_bad = -1;
    for (size_t b = 0; b < results; b++) {
        total_expected += l->expected[b];
        total_got += p->got[b];
        if (p->got[b] == l->expected[b] || bad++)
            continue;
        out->first_bad = (long)b;
        if (l->total)
            lab_finding_detail(out, "g_odata[0]: expected the sum %d, got %d", (int)l->expected[0],
                               (int)p->got[0]);
        else if (p->got[b] == POISON_OUT)
            lab_finding_detail(out, "g_odata[%zu] was never written (block %zu)", b, b);
        else
            lab_finding_detail(out, "block %zu (elements %zu..%zu): expected %d, got %d", b,
                               b * l->per_block,
                               ((b + 1) * l->per_block < p->n ? (b + 1) * l->per_block : p->n) - 1,
                               (int)l->expected[b], (int)p->got[b]);
    }
    for (size_t i = results; i < l->out_words && !bad; i++)
        if (p->got[i] != POISON_OUT) {
            bad = 1;
            if (results == 1)
                lab_finding_detail(out, "wrote g_odata[%zu], past its one result", i);
            else
                lab_finding_detail(out, "wrote g_odata[%zu], past the %zu results", i, results);
        }
    out->grid = l->grid;
    out->expected = (int32_t)total_expected;
    out->got = (int32_t)total_got;
    out->bad = bad;
    return 0;
}

/* The CPU baseline's working copy: the input restored before each (untimed) run. */
static void
cpu_restore(void *ctx)
{
    problem *p = ctx;

    memcpy(p->work, p->input, p->n * sizeof(uint32_t));
}

static void
cpu_reduce(void *ctx)
{
    problem *p = ctx;

    recursive_reduce(p->work, p->n);
}

/* The CPU baseline's problem alone (--cpu-baseline-only): the input drawn as fill draws it and
 * the working copy, in host memory; nothing on a device. */
static int
cpu_setup(lab_driver *d, void *problem_, lab_size *size, lab_rng *rng, lab_err *err)
{
    problem *p = problem_;

    p->d = d;
    p->n = size->n;
    size->bytes = (double)size->n * sizeof(uint32_t);
    if (!(p->input = lab_driver_alloc(d, p->n, sizeof(uint32_t), err)) ||
        !(p->work = lab_driver_alloc(d, p->n, sizeof(uint32_t), err)))
        return err->code;
    lab_rng_fill_bytes(rng, p->input, p->n);
    return 0;
}

const lab_family_driver lab_driver_reduce_int = {
    .problem_size = sizeof(problem),
    .setup = setup,
    .fill = fill,
    .prepare = prepare,
    .launch = launch,
    .verify = verify,
    .cpu_restore = cpu_restore,
    .cpu = cpu_reduce,
    .cpu_setup = cpu_setup,
};
