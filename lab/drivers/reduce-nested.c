/*
 * reduce-nested.c - the driver for the nested (dynamic parallelism) integer
 * reduction:
 *
 *     __global__ void K(int *g_idata, int *g_odata, unsigned int n)
 *
 * launched from the host with grid = ceil(n / block) blocks of `block`
 * threads.  Block b owns the elements [b*block, min((b+1)*block, n)) of
 * g_idata (it may overwrite them, and the child grids it launches may too)
 * and leaves their sum in g_odata[b] by the time the top-level grid is
 * complete: under CUDA 12's dynamic parallelism (CDP2) a grid is complete
 * only when every grid it launched is, so the host sees the children's
 * results after one synchronisation.
 *
 * Graded on result only (the chapter explains why a nested reduction is slow):
 * every block's sum exact (32-bit wrap-around) at every size; g_idata poisoned
 * past n, so a block that reads beyond its last element gets a wrong sum;
 * g_odata poisoned before each run, with a guard zone after the grid that
 * must stay untouched.  Timing sizes, if any are given, are ignored.
 *
 * Before the first launch the device runtime's pending-launch limit is raised
 * to what a per-block chain of child grids needs at the largest size (one
 * pending grid per level per block); if the device refuses, the report says
 * so in "pending_launch_limit_error" and the checks go on.  The simulator runs
 * the child grids itself (after their parent; the limit does not bind there);
 * a backend with no device runtime at all reports no_gpu.
 */
#include "common/driver.h"
#include "common/report.h"
#include "common/rng.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POISON_OUT 0xDEADBEEFu  /* g_odata before a run */
#define POISON_IN 0x00100001u   /* g_idata past n: changes any sum it enters */
#define GUARD 64                /* ints after the grid in g_odata */
#define DEFAULT_PENDING 2048    /* the device runtime's own default */
#define MAX_PENDING (1ul << 20) /* what we ask for at most */

typedef struct nested {
    lab_driver *d;
    unsigned long n;
    unsigned block;
    unsigned grid;
    size_t in_words;  /* grid * block: n and its poison */
    size_t out_words; /* grid + GUARD */
    uint32_t *input;
    uint32_t *expected; /* per block */
    uint32_t *got;
    lab_input in;
    lab_dptr d_out;
} nested;

/* Levels of a chain that halves a block's elements down to one: ceil(log2(block)) + 1. */
static unsigned long
levels(unsigned block)
{
    unsigned long k = 1;

    while ((1ul << (k - 1)) < block)
        k++;
    return k;
}

/* Raises the pending-launch limit for the largest size; the report says what was asked. */
static int
set_launch_limit(lab_driver *d, lab_err *err)
{
    unsigned long most = 0, want;
    unsigned block = d->args.shape[LAB_ROLE_STUDENT].block;
    int rc;

    if (!d->ops->set_pending_launches) {
        d->failed = true;
        lab_report_set_status(d->report, "no_gpu",
                              "this backend cannot run kernels that launch kernels "
                              "(no device runtime)");
        return lab_err_set(err, LAB_ENOSYS, "no device runtime");
    }
    for (size_t s = 0; s < d->args.nsizes; s++) {
        unsigned long grid = (d->args.sizes[s] + block - 1) / block;
        most = grid > most ? grid : most;
    }
    want = most * levels(block);
    want = want < DEFAULT_PENDING ? DEFAULT_PENDING : want > MAX_PENDING ? MAX_PENDING : want;
    cJSON_AddNumberToObject(d->report, "pending_launch_limit", (double)want);
    /* not fatal: within the default limit the kernels still run, and a launch the device
     * runtime refuses shows as a block sum never written */
    if ((rc = d->ops->set_pending_launches(d->dev, want, err)) < 0)
        cJSON_AddStringToObject(d->report, "pending_launch_limit_error", err->msg);
    return 0;
}

static int
setup(lab_driver *d, void *problem, lab_size *size, lab_err *err)
{
    nested *p = problem;
    int rc;

    p->d = d;
    p->n = size->n;
    p->block = d->args.shape[LAB_ROLE_STUDENT].block;
    p->grid = (unsigned)((p->n + p->block - 1) / p->block);
    p->in_words = (size_t)p->grid * p->block;
    p->out_words = p->grid + GUARD;
    if (!(p->input = lab_driver_alloc(d, p->in_words, sizeof(uint32_t), err)) ||
        !(p->expected = lab_driver_alloc(d, p->grid, sizeof(uint32_t), err)) ||
        !(p->got = lab_driver_alloc(d, p->out_words, sizeof(uint32_t), err)))
        return err->code;
    if ((rc = lab_driver_input(d, p->in_words * 4, &p->in, err)) < 0)
        return rc;
    return d->ops->alloc(d->dev, p->out_words * 4, &p->d_out, err);
}

static int
fill(void *problem, lab_rng *rng, lab_err *err)
{
    nested *p = problem;

    memset(p->expected, 0, p->grid * sizeof(uint32_t));
    lab_rng_fill_bytes(rng, p->input, p->n);
    for (size_t i = p->n; i < p->in_words; i++)
        p->input[i] = POISON_IN;
    for (size_t i = 0; i < p->n; i++)
        p->expected[i / p->block] += p->input[i];
    return lab_driver_input_set(p->d, &p->in, p->input, err);
}

/* The input restored (the kernel and its children may overwrite it), g_odata poisoned. */
static int
prepare(void *problem, lab_role role, lab_dim3 shape, lab_err *err)
{
    nested *p = problem;
    int rc;

    (void)role;
    (void)shape;
    if ((rc = lab_driver_input_restore(p->d, &p->in, err)) < 0)
        return rc;
    return lab_dev_fill32(p->d->ops, p->d->dev, p->d_out, POISON_OUT, p->out_words, err);
}

/* The block is the student's: every role shares it. */
static int
launch(void *problem, lab_role role, lab_dim3 shape, lab_err *err)
{
    nested *p = problem;
    unsigned int n = (unsigned int)p->n;
    void *args[] = { &p->in.dev, &p->d_out, &n };
    lab_dim3 grid = { p->grid, 1, 1 }, block = { p->block, 1, 1 };

    (void)shape;
    return lab_driver_launch(p->d, role, grid, block, 0, args, err);
}

/* One wait covered the children (a grid completes only when its child grids have): the block
 * sums read back, bad ones counted and the first described. */
static int
verify(void *problem, lab_role role, lab_dim3 shape, lab_finding *out, lab_err *err)
{
    nested *p = problem;
    uint32_t sum_expected = 0, sum_got = 0;
    size_t bad = 0;
    int rc;

    (void)role;
    (void)shape;
    if ((rc = p->d->ops->copy_out(p->d->dev, p->got, p->d_out, p->out_words * 4, err)) < 0)
        return rc;
    out->first_bad = -1;
    for (size_t b = 0; b < p->grid; b++) {
        size_t last = (b + 1) * p->block < p->n ? (b + 1) * p->block : p->n;

        sum_expected += p->expected[b];
        sum_got += p->got[b];
        if (p->got[b] == p->expected[b] || bad++)
            continue;
        out->first_bad = (long)b;
        if (p->got[b] == POISON_OUT)
            lab_finding_detail(
                out,
                "g_odata[%zu] was never written (block %zu): did its chain of child grids "
                "reach one element, and was every launch accepted?",
                b, b);
        else
            lab_finding_detail(out, "block %zu (elements %zu..%zu): expected %d, got %d", b,
                               b * p->block, last - 1, (int)p->expected[b], (int)p->got[b]);
    }
    for (size_t i = p->grid; i < p->out_words && !bad; i++)
        if (p->got[i] != POISON_OUT) {
            bad = 1;
            lab_finding_detail(out, "wrote g_odata[%zu], past the %u block sums", i, p->grid);
        }
    out->grid = p->grid;
    out->expected = (int32_t)sum_expected;
    out->got = (int32_t)sum_got;
    out->bad = bad;
    return 0;
}

const lab_family_driver lab_driver_reduce_nested = {
    .problem_size = sizeof(nested),
    .begin = set_launch_limit,
    .setup = setup,
    .fill = fill,
    .prepare = prepare,
    .launch = launch,
    .verify = verify,
    .untimed = true, /* graded on result only */
};
