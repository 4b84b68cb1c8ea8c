/*
 * warp-ids.c - the driver for the thread-identity family of the warp chapter:
 *
 *     __global__ void K(unsigned *gid, unsigned *warp, unsigned *lane, unsigned n)
 *
 * launched on a 1D grid of ceil(n / T) blocks of every block shape the
 * exercise names (T = x*y*z threads: 1D, 2D such as 40x2, 3D such as 8x4x2).
 * The thread with global linear id g = blockIdx.x*T + threadIdx.z*x*y +
 * threadIdx.y*x + threadIdx.x writes, when g < n, gid[g] = g, warp[g] = its
 * warp within the block ((g mod T) / 32) and lane[g] = its lane ((g mod T) mod
 * 32).  Threads with g >= n write nothing.
 *
 * Checks: every element of the three outputs for every shape and size; the
 * outputs are poisoned before each run, and everything from n to the end of
 * the grid plus a guard zone must stay poisoned.  Correctness only: there is
 * nothing to time.
 */
#include "common/driver.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POISON 0xDEADBEEFu
#define GUARD 64
#define NOUT 3

static const char *const out_names[NOUT] = { "gid", "warp", "lane" };

static unsigned
expected(unsigned out, size_t g, unsigned threads)
{
    unsigned t = (unsigned)(g % threads);

    return out == 0 ? (unsigned)g : out == 1 ? t / 32 : t % 32;
}

typedef struct problem {
    lab_driver *d;
    unsigned long n;
    lab_dptr dout[NOUT];
    uint32_t *host;
    size_t words; /* per output */
} problem;

static int
prepare(void *ctx, lab_role role, lab_dim3 shape, lab_err *err)
{
    problem *p = ctx;
    int rc;

    (void)role;
    (void)shape;
    for (int o = 0; o < NOUT; o++)
        if ((rc = lab_dev_fill32(p->d->ops, p->d->dev, p->dout[o], POISON, p->words, err)) < 0)
            return rc;
    return 0;
}

static lab_dim3
grid_of(const problem *p, lab_dim3 shape)
{
    unsigned threads = shape.x * shape.y * shape.z;

    return (lab_dim3){ (unsigned)((p->n + threads - 1) / threads), 1, 1 };
}

static int
launch(void *ctx, lab_role role, lab_dim3 shape, lab_err *err)
{
    problem *p = ctx;
    unsigned nn = (unsigned)p->n;
    void *args[] = { &p->dout[0], &p->dout[1], &p->dout[2], &nn };

    return lab_driver_launch(p->d, role, grid_of(p, shape), shape, 0, args, err);
}

/* Every element of the three outputs; the first bad one described. */
static int
verify(void *ctx, lab_role role, lab_dim3 shape, lab_finding *out, lab_err *err)
{
    problem *p = ctx;
    const unsigned long n = p->n;
    const unsigned threads = shape.x * shape.y * shape.z;
    char block[32];
    uint32_t *host = p->host;
    size_t bad = 0;
    long first_bad = -1;
    int rc;

    (void)role;
    lab_dim3_format(shape, "block ", "x", "", block, sizeof(block));
    for (unsigned o = 0; o < NOUT; o++) {
        if ((rc = p->d->ops->copy_out(p->d->dev, host, p->dout[o], p->words * 4, err)) < 0)
            return rc;
        for (size_t g = 0; g < p->words; g++) {
            uint32_t want = g < n ? expected(o, g, threads) : POISON;
            if (host[g] == want || bad++)
                continue;
            first_bad = (long)g;
            if (g >= n)
                lab_finding_detail(
                    out, "%s: wrote %s[%zu], past n = %lu (threads past n must not write)", block,
                    out_names[o], g, n);
            else if (host[g] == POISON)
                lab_finding_detail(out, "%s: %s[%zu] was never written (thread %zu of block %zu)",
                                   block, out_names[o], g, g % threads, g / threads);
            else
                lab_finding_detail(out, "%s: %s[%zu] = %u, expected %u (thread %zu of block %zu)",
                                   block, out_names[o], g, host[g], want, g % threads, g / threads);
        }
    }
    lab_finding_count(out, grid_of(p, shape).x, n, bad, first_bad);
    return 0;
}

static int
setup(lab_driver *d, void *problem_, lab_size *size, lab_err *err)
{
    problem *p = problem_;
    int rc;

    p->d = d;
    p->n = size->n;
    p->words = size->n + 1024 + GUARD; /* the last block's threads past n, then a guard */
    if (!(p->host = lab_driver_alloc(d, p->words, 4, err)))
        return err->code;
    for (int o = 0; o < NOUT; o++)
        if ((rc = d->ops->alloc(d->dev, p->words * 4, &p->dout[o], err)) < 0)
            return rc;
    return 0;
}

const lab_family_driver lab_driver_warp_ids = {
    .problem_size = sizeof(problem),
    .setup = setup,
    .prepare = prepare,
    .launch = launch,
    .verify = verify,
    .untimed = true, /* nothing to time */
};
