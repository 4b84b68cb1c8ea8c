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
#include "lab/harness/driver.h"

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

/* One role, one size, one shape: run it, check every element, record the case. */
static int
check(void *ctx, lab_role role, lab_dim3 shape, lab_err *err)
{
    problem *p = ctx;
    lab_driver *d = p->d;
    unsigned long n = p->n;
    lab_dptr *dout = p->dout;
    uint32_t *host = p->host;
    size_t words = p->words;
    unsigned threads = shape.x * shape.y * shape.z, nn = (unsigned)n;
    lab_dim3 grid = { (unsigned)((n + threads - 1) / threads), 1, 1 };
    void *args[] = { &dout[0], &dout[1], &dout[2], &nn };
    char detail[256] = "";
    size_t bad = 0;
    long first_bad = -1;
    int rc;

    for (size_t i = 0; i < words; i++)
        host[i] = POISON;
    for (int o = 0; o < NOUT; o++)
        if ((rc = d->ops->copy_in(d->dev, dout[o], host, words * 4, err)) < 0)
            return lab_driver_fail(d, role, "setup", n, err);
    if ((rc = lab_driver_launch(d, role, grid, shape, 0, args, err)) < 0)
        return lab_driver_fail(d, role, "launch", n, err);
    if ((rc = d->ops->sync(d->dev, err)) < 0)
        return lab_driver_fail(d, role, "run", n, err);
    for (unsigned o = 0; o < NOUT; o++) {
        if ((rc = d->ops->copy_out(d->dev, host, dout[o], words * 4, err)) < 0)
            return lab_driver_fail(d, role, "run", n, err);
        for (size_t g = 0; g < words; g++) {
            uint32_t want = g < n ? expected(o, g, threads) : POISON;
            if (host[g] == want || bad++)
                continue;
            first_bad = (long)g;
            if (g >= n)
                snprintf(detail, sizeof(detail),
                         "block %ux%ux%u: wrote %s[%zu], past n = %lu (threads past n must not "
                         "write)",
                         shape.x, shape.y, shape.z, out_names[o], g, n);
            else if (host[g] == POISON)
                snprintf(detail, sizeof(detail),
                         "block %ux%ux%u: %s[%zu] was never written (thread %zu of block %zu)",
                         shape.x, shape.y, shape.z, out_names[o], g, g % threads, g / threads);
            else
                snprintf(detail, sizeof(detail),
                         "block %ux%ux%u: %s[%zu] = %u, expected %u (thread %zu of block %zu)",
                         shape.x, shape.y, shape.z, out_names[o], g, host[g], want, g % threads,
                         g / threads);
        }
    }
    return lab_driver_add_case(d, n, role, grid.x, (double)n, (double)(n - (bad < n ? bad : n)),
                               bad, first_bad, detail, err);
}

static int
setup(lab_driver *d, void *problem_, lab_size *size, lab_err *err)
{
    const unsigned long n = size->n;
    problem *p = problem_;
    int rc;

    p->d = d;
    p->n = n;
    p->words = n + 1024 + GUARD; /* the last block's threads past n, then a guard */
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
    .check = check,
};
