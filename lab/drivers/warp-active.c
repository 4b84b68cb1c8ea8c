/*
 * warp-active.c - the driver for the active-lanes family of the warp chapter:
 *
 *     __global__ void K(unsigned *active)
 *
 * launched on n blocks (the size is the number of blocks) of every block
 * shape the exercise names.  Each warp of each block writes how many of its
 * lanes hold a thread: active[blockIdx.x * W + w] for warp w of W =
 * ceil(T / 32), T = x*y*z.  A 40x2 block has 80 threads in 3 warps: 32, 32
 * and 16 active lanes.
 *
 * Checks: every element for every shape and size, the output poisoned before
 * each run and a guard zone past the grid that must stay untouched.
 * Correctness only.
 */
#include "common/driver.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define POISON 0xDEADBEEFu
#define GUARD 64

typedef struct problem {
    lab_driver *d;
    unsigned long n; /* blocks */
    size_t words;    /* room for 32 warps a block, and the guard */
    lab_dptr dout;
    uint32_t *host;
} problem;

static int
prepare(void *ctx, lab_role role, lab_dim3 shape, lab_err *err)
{
    problem *p = ctx;

    (void)role;
    (void)shape;
    return lab_dev_fill32(p->d->ops, p->d->dev, p->dout, POISON, p->words, err);
}

static int
launch(void *ctx, lab_role role, lab_dim3 shape, lab_err *err)
{
    problem *p = ctx;
    lab_dim3 grid = { (unsigned)p->n, 1, 1 };
    void *args[] = { &p->dout };

    return lab_driver_launch(p->d, role, grid, shape, 0, args, err);
}

static int
verify(void *ctx, lab_role role, lab_dim3 shape, lab_finding *out, lab_err *err)
{
    problem *p = ctx;
    uint32_t *host = p->host;
    unsigned threads = shape.x * shape.y * shape.z, warps = (threads + 31) / 32;
    size_t used = p->n * warps, words = used + GUARD;
    size_t bad = 0;
    long first_bad = -1;
    int rc;

    (void)role;
    if ((rc = p->d->ops->copy_out(p->d->dev, host, p->dout, words * 4, err)) < 0)
        return rc;
    for (size_t i = 0; i < words; i++) {
        unsigned w = (unsigned)(i % warps);
        uint32_t want = i < used ? (threads - 32 * w < 32 ? threads - 32 * w : 32) : POISON;
        if (host[i] == want || bad++)
            continue;
        first_bad = (long)i;
        if (i >= used)
            lab_finding_detail(out,
                               "block %ux%ux%u: wrote active[%zu], past the %zu warps of the grid",
                               shape.x, shape.y, shape.z, i, used);
        else if (host[i] == POISON)
            lab_finding_detail(
                out, "block %ux%ux%u: active[%zu] (warp %u of block %zu) was never written",
                shape.x, shape.y, shape.z, i, w, i / warps);
        else
            lab_finding_detail(
                out,
                "block %ux%ux%u (%u threads, %u warps): active[%zu] (warp %u of block %zu) "
                "= %u, expected %u",
                shape.x, shape.y, shape.z, threads, warps, i, w, i / warps, host[i], want);
    }
    lab_finding_count(out, p->n, used, bad, first_bad);
    return 0;
}

static int
setup(lab_driver *d, void *problem_, lab_size *size, lab_err *err)
{
    problem *p = problem_;

    p->d = d;
    p->n = size->n;
    p->words = size->n * 32 + GUARD; /* at most 32 warps per block */
    if (!(p->host = lab_driver_alloc(d, p->words, 4, err)))
        return err->code;
    return d->ops->alloc(d->dev, p->words * 4, &p->dout, err);
}

const lab_family_driver lab_driver_warp_active = {
    .problem_size = sizeof(problem),
    .setup = setup,
    .prepare = prepare,
    .launch = launch,
    .verify = verify,
    .untimed = true, /* correctness only */
};
