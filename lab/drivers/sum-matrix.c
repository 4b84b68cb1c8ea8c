/*
 * sum-matrix.c - the driver for the matrix-sum family of the blockshape
 * chapter (the notes' sumMatrixOnGPU2D):
 *
 *     __global__ void K(float *A, float *B, float *C, int nx, int ny)
 *
 * C = A + B over an nx x ny row-major matrix, launched on a 2D grid of
 * ceil(nx / block.x) x ceil(ny / block.y) blocks of every block shape the
 * exercise names.  Size s means nx = s, ny = s/2 + 3: neither is a multiple of
 * a block's sides, so a kernel without bounds checks reads and writes past the
 * matrix.
 *
 * Checks: every element of C for every shape and size (sums of small
 * integers, exact in float); C poisoned before each run, and everything after
 * nx*ny up to the whole grid's extent plus a guard must stay poisoned.
 * Timing, when the exercise asks for it: interleaved at the first shape
 * (12 bytes per element).  With --choose-block (blockshape/fastest-shape) the
 * student's file names its shape (common/choose.h): the kernel is checked at
 * that shape and, at the timing size, timed at every shape of --block.
 */
#include "common/driver.h"
#include "common/rng.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POISON 0xC640E600u /* -12345.5f */
#define GUARD 1024

typedef struct problem {
    lab_driver *d;
    int nx, ny;
    size_t cells, words; /* nx*ny; allocated floats per matrix */
    float *a, *b;
    lab_input da, db;
    lab_output c; /* n = cells */
} problem;

static lab_dim3
grid_of(const problem *p, lab_dim3 s)
{
    return (lab_dim3){ ((unsigned)p->nx + s.x - 1) / s.x, ((unsigned)p->ny + s.y - 1) / s.y, 1 };
}

static int
launch(void *ctx, lab_role role, lab_dim3 shape, lab_err *err)
{
    problem *p = ctx;
    void *args[] = { &p->da.dev, &p->db.dev, &p->c.dev, &p->nx, &p->ny };

    return lab_driver_launch(p->d, role, grid_of(p, shape), shape, 0, args, err);
}

static int
prepare(void *ctx, lab_role role, lab_dim3 shape, lab_err *err)
{
    problem *p = ctx;
    int rc;

    (void)role;
    (void)shape;
    if ((rc = lab_driver_input_restore(p->d, &p->da, err)) < 0 ||
        (rc = lab_driver_input_restore(p->d, &p->db, err)) < 0)
        return rc;
    return lab_driver_output_poison(p->d, &p->c, err);
}

static int
verify(void *ctx, lab_role role, lab_dim3 s, lab_finding *out, lab_err *err)
{
    problem *p = ctx;
    lab_dim3 g = grid_of(p, s);
    size_t bad = 0;
    long first_bad = -1;
    int rc;

    (void)role;
    if ((rc = p->d->ops->copy_out(p->d->dev, p->c.host, p->c.dev, p->words * 4, err)) < 0)
        return rc;
    for (size_t i = 0; i < p->words; i++) {
        float want = i < p->cells ? p->a[i] + p->b[i] : lab_float_of_bits(POISON), got;
        memcpy(&got, &p->c.host[i], sizeof(got));
        if (memcmp(&got, &want, sizeof(want)) == 0 || bad++)
            continue;
        first_bad = (long)i;
        if (i >= p->cells)
            lab_finding_detail(
                out,
                "block %ux%u, %dx%d matrix: wrote C[%zu], past the matrix's %zu elements "
                "(check ix < nx and iy < ny)",
                s.x, s.y, p->nx, p->ny, i, p->cells);
        else if (p->c.host[i] == POISON)
            lab_finding_detail(
                out, "block %ux%u, %dx%d matrix: C[%zu] (row %zu, column %zu) was never written",
                s.x, s.y, p->nx, p->ny, i, i / (size_t)p->nx, i % (size_t)p->nx);
        else
            lab_finding_detail(
                out, "block %ux%u, %dx%d matrix: C[%zu] (row %zu, column %zu) = %g, expected %g",
                s.x, s.y, p->nx, p->ny, i, i / (size_t)p->nx, i % (size_t)p->nx, (double)got,
                (double)want);
    }
    lab_finding_count(out, (unsigned long)g.x * g.y, p->cells, bad, first_bad);
    return 0;
}

/* Floats per matrix: the whole grid's extent for the largest shape, plus a guard. */
static size_t
extent(const problem *p)
{
    size_t most = 0;

    for (size_t b = 0; b < p->d->args.nblocks; b++) {
        lab_dim3 s = p->d->args.blocks[b], g = grid_of(p, s);
        size_t e = (size_t)g.x * s.x * g.y * s.y + (size_t)g.x * s.x;
        most = e > most ? e : most;
    }
    return (most > p->cells ? most : p->cells) + GUARD;
}

static int
setup(lab_driver *d, void *problem_, lab_size *size, lab_err *err)
{
    problem *p = problem_;
    int rc;

    *p = (problem){ .d = d, .nx = (int)size->n, .ny = (int)(size->n / 2 + 3) };
    p->cells = (size_t)p->nx * (size_t)p->ny;
    size->bytes = 12.0 * (double)p->cells; /* A and B read, C written */
    if (size->n > (1u << 16))
        return lab_err_set(err, LAB_EINVAL, "size %lu is too large for a matrix side", size->n);
    p->words = extent(p);
    if (!(p->a = lab_driver_alloc(d, p->words, 4, err)) ||
        !(p->b = lab_driver_alloc(d, p->words, 4, err)))
        return err->code;
    if ((rc = lab_driver_input(d, p->words * 4, &p->da, err)) < 0 ||
        (rc = lab_driver_input(d, p->words * 4, &p->db, err)) < 0)
        return rc;
    return lab_driver_output(d, p->cells, p->words - p->cells, POISON, &p->c, err);
}

static int
fill(void *problem_, lab_rng *rng, lab_err *err)
{
    problem *p = problem_;
    int rc;

    for (size_t i = 0; i < p->words; i++) {
        p->a[i] = (float)lab_rng_below(rng, 1024);
        p->b[i] = (float)lab_rng_below(rng, 1024) * 0.5f;
    }
    if ((rc = lab_driver_input_set(p->d, &p->da, p->a, err)) < 0)
        return rc;
    return lab_driver_input_set(p->d, &p->db, p->b, err);
}

const lab_family_driver lab_driver_sum_matrix = {
    .problem_size = sizeof(problem),
    .setup = setup,
    .fill = fill,
    .prepare = prepare,
    .launch = launch,
    .verify = verify,
};
