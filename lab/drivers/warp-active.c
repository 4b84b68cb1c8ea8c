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
#include "lab/harness/driver.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define POISON 0xDEADBEEFu
#define GUARD 64

typedef struct problem {
    lab_driver *d;
    unsigned long n; /* blocks */
    lab_dptr dout;
    uint32_t *host;
} problem;

static int
launch(void *ctx, lab_role role, lab_dim3 shape, lab_err *err)
{
    problem *p = ctx;
    lab_dim3 grid = { (unsigned)p->n, 1, 1 };
    void *args[] = { &p->dout };

    return lab_driver_launch(p->d, role, grid, shape, 0, args, err);
}

static int
check(void *ctx, lab_role role, lab_dim3 shape, lab_err *err)
{
    problem *p = ctx;
    lab_driver *d = p->d;
    unsigned long n = p->n;
    lab_dptr dout = p->dout;
    uint32_t *host = p->host;
    unsigned threads = shape.x * shape.y * shape.z, warps = (threads + 31) / 32;
    size_t used = n * warps, words = used + GUARD;
    char detail[256] = "";
    size_t bad = 0;
    long first_bad = -1;
    int rc;

    if ((rc = lab_driver_run_poisoned(d, role, n, shape, launch, p, dout, host, words, POISON,
                                      err)) < 0)
        return rc;
    for (size_t i = 0; i < words; i++) {
        unsigned w = (unsigned)(i % warps);
        uint32_t want = i < used ? (threads - 32 * w < 32 ? threads - 32 * w : 32) : POISON;
        if (host[i] == want || bad++)
            continue;
        first_bad = (long)i;
        if (i >= used)
            snprintf(detail, sizeof(detail),
                     "block %ux%ux%u: wrote active[%zu], past the %zu warps of the grid", shape.x,
                     shape.y, shape.z, i, used);
        else if (host[i] == POISON)
            snprintf(detail, sizeof(detail),
                     "block %ux%ux%u: active[%zu] (warp %u of block %zu) was never written",
                     shape.x, shape.y, shape.z, i, w, i / warps);
        else
            snprintf(detail, sizeof(detail),
                     "block %ux%ux%u (%u threads, %u warps): active[%zu] (warp %u of block %zu) "
                     "= %u, expected %u",
                     shape.x, shape.y, shape.z, threads, warps, i, w, i / warps, host[i], want);
    }
    return lab_driver_add_case(d, n, role, n, (double)used,
                               (double)(used - (bad < used ? bad : used)), bad, first_bad, detail,
                               err);
}

static int
setup(lab_driver *d, void *problem_, lab_size *size, lab_err *err)
{
    const unsigned long n = size->n;
    problem *p = problem_;
    size_t words = n * 32 + GUARD; /* at most 32 warps per block */

    p->d = d;
    p->n = n;
    if (!(p->host = lab_driver_alloc(d, words, 4, err)))
        return err->code;
    return d->ops->alloc(d->dev, words * 4, &p->dout, err);
}

const lab_family_driver lab_driver_warp_active = {
    .problem_size = sizeof(problem),
    .setup = setup,
    .check = check,
};
