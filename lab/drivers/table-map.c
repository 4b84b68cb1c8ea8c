/*
 * table-map.c - the driver for the table-lookup family of the occupancy
 * chapter:
 *
 *     __global__ void K(const int *in, const int *table, int *out, unsigned int n)
 *
 * out[i] = table[in[i] % 10240] for every i < n, the 40 KiB table staged in
 * each block's shared memory.  The kernel loops over the input with a grid
 * stride; the grid is one wave of resident blocks: as many blocks of the
 * launched shape as fit on an SM (the CUDA occupancy API, for the module's
 * own kernel) times the SMs.  On the simulator, which has no occupancy API,
 * 4 blocks per SM.
 *
 * Checks: every element of out, poisoned before each run, and a guard zone
 * after it that must stay poisoned.  Timing: student, baseline and reference
 * interleaved (8n bytes), or with --choose-block (occupancy/block-size) the
 * student's kernel at every shape of --block (common/choose.h).
 */
#include "common/driver.h"
#include "common/rng.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define TABLE 10240
#define POISON_OUT 0x7EADBEEF
#define GUARD 1024
#define SIM_BLOCKS_PER_SM 4

typedef struct problem {
    lab_words w; /* in[0]: in; in[1]: table; out */
    int32_t *in, *table;
    struct {
        unsigned threads, grid;
    } cache[LAB_ROLE_COUNT][16]; /* the grid of each (role, block size) met so far */
} problem;

/* One wave of resident blocks of `threads` for role's kernel, at most enough to cover n. */
static int
grid_of(problem *p, lab_role role, unsigned threads, unsigned *out, lab_err *err)
{
    lab_driver *d = p->w.d;
    unsigned long need = (p->w.n + threads - 1) / threads;
    unsigned per_sm = SIM_BLOCKS_PER_SM;
    lab_occupancy o;
    size_t i;
    int rc;

    for (i = 0; i < 16 && p->cache[role][i].threads; i++)
        if (p->cache[role][i].threads == threads) {
            *out = p->cache[role][i].grid;
            return 0;
        }
    if (d->ops->occupancy) {
        if ((rc = d->ops->occupancy(d->module[role], d->mangled[role], threads, 0, &o, err)) < 0)
            return rc;
        if (o.blocks_per_sm < 1)
            return lab_err_set(err, LAB_EINVAL,
                               "a block of %u threads does not fit on an SM (%d registers per "
                               "thread, %d bytes of shared memory per block)",
                               threads, o.regs, o.static_smem);
        per_sm = (unsigned)o.blocks_per_sm;
    }
    *out = per_sm * (unsigned)d->info.sm_count;
    if (*out > need)
        *out = (unsigned)need;
    if (i < 16)
        p->cache[role][i].threads = threads, p->cache[role][i].grid = *out;
    return 0;
}

static int
launch(void *ctx, lab_role role, lab_dim3 shape, lab_err *err)
{
    problem *p = ctx;
    unsigned int n = (unsigned int)p->w.n;
    lab_dim3 grid = { 1, 1, 1 };
    void *args[] = { &p->w.in[0].dev, &p->w.in[1].dev, &p->w.out.dev, &n };
    int rc;

    if ((rc = grid_of(p, role, shape.x * shape.y * shape.z, &grid.x, err)) < 0)
        return rc;
    return lab_driver_launch(p->w.d, role, grid, shape, 0, args, err);
}

static unsigned long
blocks(void *ctx, lab_role role, lab_dim3 shape)
{
    lab_err ignored = LAB_ERR_INIT;
    unsigned grid = 0;

    grid_of(ctx, role, shape.x * shape.y * shape.z, &grid, &ignored);
    return grid;
}

static uint32_t
want(const void *ctx, size_t i)
{
    const problem *p = ctx;

    return (uint32_t)p->table[(uint32_t)p->in[i] % TABLE];
}

static void
explain(const void *ctx, size_t i, uint32_t value, char *buf, size_t size)
{
    const problem *p = ctx;

    snprintf(buf, size, "table[%u] = %d", (uint32_t)p->in[i] % TABLE, (int32_t)value);
}

static const lab_output_spec out_spec = {
    .want = want, .explain = explain, .name = "out", .grid = blocks, .shape_prefix = true
};

static int
setup(lab_driver *d, void *problem_, lab_size *size, lab_err *err)
{
    problem *p = problem_;
    const size_t words = size->n + GUARD;
    int rc;

    lab_words_setup(&p->w, d, size, 2, &out_spec, 8.0); /* 4 bytes read, 4 written */
    if (!(p->in = lab_driver_alloc(d, words, 4, err)) ||
        !(p->table = lab_driver_alloc(d, TABLE, 4, err)))
        return err->code;
    if ((rc = lab_driver_input(d, words * 4, &p->w.in[0], err)) < 0 ||
        (rc = lab_driver_input(d, TABLE * 4, &p->w.in[1], err)) < 0)
        return rc;
    return lab_driver_output(d, size->n, GUARD, POISON_OUT, &p->w.out, err);
}

static int
fill(void *problem_, lab_rng *rng, lab_err *err)
{
    problem *p = problem_;
    int rc;

    for (size_t i = 0; i < p->w.n + GUARD; i++)
        p->in[i] = (int32_t)lab_rng_below(rng, 1u << 30);
    for (size_t i = 0; i < TABLE; i++)
        p->table[i] = (int32_t)lab_rng_below(rng, 1u << 30);
    if ((rc = lab_driver_input_set(p->w.d, &p->w.in[0], p->in, err)) < 0)
        return rc;
    return lab_driver_input_set(p->w.d, &p->w.in[1], p->table, err);
}

const lab_family_driver lab_driver_table_map = {
    .problem_size = sizeof(problem),
    .setup = setup,
    .fill = fill,
    .prepare = lab_words_prepare,
    .launch = launch,
    .verify = lab_words_verify,
};
