/*
 * demo-blockshape.c - the blockshape chapter's demo: the notes'
 * sumMatrixOnGPU2D (kernels/blockshape.cu) on 16384 x 16384 floats over every
 * block shape of the notes, (256,8) included, which must fail at launch.
 * Every shape's sums are checked on the device; the valid shapes are timed
 * interleaved with CUDA events, the L2 flushed before each sample.  Shown as
 * a table and a heat map of block.x by block.y.
 *
 * On the simulator the sums are checked on 512 x 512 floats (the full matrices are 3 GiB) and
 * the times are modelled (demomodel.h): each shape counted on 256 x 256 and 512 x 512 and
 * scaled to 16384 x 16384.
 */
#include "common/demodrv.h"
#include "lab/util/i18n.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define NX (1 << 14)
#define NY (1 << 14)
#define SIM_SIDE 512 /* on the simulator: the matrices' side the sums are checked on */

/* Each shape with the figures of docs/numbers.ini its columns show (NULL: not measured there). */
static const struct shape {
    unsigned x, y;
    const char *m2070_ms;  /* the notes' elapsed time on a Tesla M2070 */
    const char *h100_us;   /* the lab's H100 run */
    const char *m2070_occ; /* achieved occupancy (%): the notes' nvprof */
    const char *h100_occ;  /* and Nsight Compute on the H100 */
} shapes[] = {
    { 32, 32, "notes.003.sum_matrix.32x32.ms", "h100.blockshape.32x32.us",
      "notes.003.sum_matrix.32x32.occupancy.pct", "h100.blockshape.32x32.occupancy.pct" },
    { 32, 16, "notes.003.sum_matrix.32x16.ms", "h100.blockshape.32x16.us",
      "notes.003.sum_matrix.32x16.occupancy.pct", "h100.blockshape.32x16.occupancy.pct" },
    { 16, 32, "notes.003.sum_matrix.16x32.ms", "h100.blockshape.16x32.us",
      "notes.003.sum_matrix.16x32.occupancy.pct", "h100.blockshape.16x32.occupancy.pct" },
    { 16, 16, "notes.003.sum_matrix.16x16.ms", "h100.blockshape.16x16.us",
      "notes.003.sum_matrix.16x16.occupancy.pct", "h100.blockshape.16x16.occupancy.pct" },
    { 64, 2, "notes.003.sum_matrix.64x2.ms", "h100.blockshape.64x2.us",
      "notes.003.sum_matrix.64x2.occupancy.pct", NULL },
    { 64, 4, "notes.003.sum_matrix.64x4.ms", "h100.blockshape.64x4.us",
      "notes.003.sum_matrix.64x4.occupancy.pct", NULL },
    { 64, 8, "notes.003.sum_matrix.64x8.ms", "h100.blockshape.64x8.us",
      "notes.003.sum_matrix.64x8.occupancy.pct", NULL },
    { 128, 1, "notes.003.sum_matrix.128x1.ms", "h100.blockshape.128x1.us", NULL, NULL },
    { 128, 2, "notes.003.sum_matrix.128x2.ms", "h100.blockshape.128x2.us",
      "notes.003.sum_matrix.128x2.occupancy.pct", "h100.blockshape.128x2.occupancy.pct" },
    { 128, 4, "notes.003.sum_matrix.128x4.ms", "h100.blockshape.128x4.us",
      "notes.003.sum_matrix.128x4.occupancy.pct", NULL },
    { 128, 8, "notes.003.sum_matrix.128x8.ms", "h100.blockshape.128x8.us",
      "notes.003.sum_matrix.128x8.occupancy.pct", NULL },
    { 256, 1, "notes.003.sum_matrix.256x1.ms", "h100.blockshape.256x1.us",
      "notes.003.sum_matrix.256x1.occupancy.pct", "h100.blockshape.256x1.occupancy.pct" },
    { 256, 2, "notes.003.sum_matrix.256x2.ms", "h100.blockshape.256x2.us",
      "notes.003.sum_matrix.256x2.occupancy.pct", NULL },
    { 256, 4, "notes.003.sum_matrix.256x4.ms", "h100.blockshape.256x4.us",
      "notes.003.sum_matrix.256x4.occupancy.pct", NULL },
    { 256, 8, NULL, NULL, NULL, NULL },
};
#define NSHAPES (sizeof(shapes) / sizeof(shapes[0]))

/* A shape's figure from the table; NAN (an empty cell) where it has none. */
static double
figure(const lab_demodrv *d, const char *key)
{
    return key ? lab_demodrv_figure(d, key) : NAN;
}

/* blockshape.ptx and the mangled name of its sumMatrixOnGPU2D. */
typedef struct kernels {
    lab_module *m;
    char sum[128];
} kernels;

typedef struct matrices {
    lab_dptr a, b, c, bad;
    unsigned long long n;
    int nx, ny;
} matrices;

static int
grid_stride(lab_demodrv *d, const kernels *k, const char *kernel, void **args, lab_err *err)
{
    lab_dim3 grid = { 4 * (unsigned)d->info.sm_count, 1, 1 }, block = { 256, 1, 1 };

    return d->ops->launch(k->m, kernel, grid, block, 0, args, err);
}

/* Launches one shape and checks every sum; *launch_err gets a launch failure's message. */
static int
check_shape(lab_demodrv *d, const kernels *k, matrices *mx, const struct shape *s, bool *ok,
            unsigned *bad, lab_err *launch_err, lab_err *err)
{
    lab_dim3 block = { s->x, s->y, 1 };
    lab_dim3 grid = { (mx->nx + s->x - 1) / s->x, (mx->ny + s->y - 1) / s->y, 1 };
    void *args[] = { &mx->a, &mx->b, &mx->c, &mx->nx, &mx->ny };
    void *cargs[] = { &mx->a, &mx->b, &mx->c, &mx->n, &mx->bad };
    unsigned zero = 0;
    int rc;

    *ok = d->ops->launch(k->m, k->sum, grid, block, 0, args, launch_err) == 0;
    if (!*ok)
        return 0;
    if ((rc = d->ops->copy_in(d->dev, mx->bad, &zero, sizeof(zero), err)) < 0 ||
        (rc = grid_stride(d, k, "labCheckMatrix", cargs, err)) < 0 ||
        (rc = d->ops->sync(d->dev, err)) < 0 ||
        (rc = d->ops->copy_out(d->dev, bad, mx->bad, sizeof(*bad), err)) < 0)
        return rc;
    return 0;
}

/* The model's resize (demodrv.h): the sum over side x side floats, side the square root of
 * work. */
static double
resize_square(lab_demodrv_launch *l, double work)
{
    matrices *mx = l->ctx;
    int side = (int)sqrt(work);

    mx->nx = mx->ny = side;
    l->grid =
        (lab_dim3){ (side + l->block.x - 1) / l->block.x, (side + l->block.y - 1) / l->block.y, 1 };
    return (double)side * side;
}

static int
sweep(lab_demodrv *d, const kernels *k, lab_err *err)
{
    const int side = lab_demodrv_is_sim(d) ? SIM_SIDE : NX; /* where the sums are checked */
    const double full = (double)NX * NY;
    matrices mx = { .n = (unsigned long long)side * side, .nx = side, .ny = side };
    void *fargs[] = { &mx.a, &mx.b, &mx.c, &mx.n };
    void *args[] = { &mx.a, &mx.b, &mx.c, &mx.nx, &mx.ny };
    lab_demodrv_launch l[NSHAPES];
    lab_err launch_err[NSHAPES];
    bool ok[NSHAPES];
    unsigned bad[NSHAPES];
    double us[NSHAPES], best = 0;
    size_t nl = 0;
    cJSON *rows;
    int rc;

    if ((rc = d->ops->alloc(d->dev, mx.n * 4, &mx.a, err)) < 0 ||
        (rc = d->ops->alloc(d->dev, mx.n * 4, &mx.b, err)) < 0 ||
        (rc = d->ops->alloc(d->dev, mx.n * 4, &mx.c, err)) < 0 ||
        (rc = d->ops->alloc(d->dev, sizeof(unsigned), &mx.bad, err)) < 0 ||
        (rc = grid_stride(d, k, "labFillMatrix", fargs, err)) < 0 ||
        (rc = d->ops->sync(d->dev, err)) < 0)
        return rc;
    for (size_t i = 0; i < NSHAPES; i++) {
        launch_err[i] = (lab_err)LAB_ERR_INIT;
        bad[i] = 0;
        if ((rc = check_shape(d, k, &mx, &shapes[i], &ok[i], &bad[i], &launch_err[i], err)) < 0)
            return rc;
        if (ok[i]) {
            l[nl++] = (lab_demodrv_launch){
                .d = d,
                .m = k->m,
                .kernel = k->sum,
                .grid = { (NX + shapes[i].x - 1) / shapes[i].x,
                          (NY + shapes[i].y - 1) / shapes[i].y, 1 },
                .block = { shapes[i].x, shapes[i].y, 1 },
                .args = args,
                .work = full,
                .in_bytes = 8 * full,
                .out_bytes = 4 * full,
                .resize = resize_square,
                .ctx = &mx,
            };
        }
    }
    mx.nx = NX; /* the launches timed are the full matrices' */
    mx.ny = NY;
    if ((rc = lab_demodrv_time(d, l, nl, us, err)) < 0)
        return rc;
    for (size_t i = 0; i < nl; i++)
        best = best == 0 || us[i] < best ? us[i] : best;
    rows = lab_demodrv_section(
        d, N_("sumMatrixOnGPU2D, 16384 x 16384 floats"),
        N_("C = A + B over every block shape of the notes. Each element moves 12 bytes (two "
           "loads, one store). 'vs best' is the time over the fastest shape's. The notes' Tesla "
           "M2070 times beside them: there the shape mattered 2x, on recent GPUs much less."),
        N_("block.x"), "", N_("block.y"), "", N_("grid"), "", N_("time"), "us", N_("bandwidth"),
        "GB/s", N_("vs best"), "x", N_("wrong"), "", N_("H100 notes"), "us", N_("M2070 notes"),
        "ms", N_("launch"), "", NULL);
    for (size_t i = 0, t_at = 0; i < NSHAPES; i++) {
        char grid[64];
        snprintf(grid, sizeof(grid), "%ux%u", (NX + shapes[i].x - 1) / shapes[i].x,
                 (NY + shapes[i].y - 1) / shapes[i].y);
        if (ok[i]) {
            double t = us[t_at++];
            lab_demodrv_row(rows, "nnsnnnnnns", (double)shapes[i].x, (double)shapes[i].y, grid, t,
                            12.0 * full / (t * 1e3), t / best, (double)bad[i],
                            figure(d, shapes[i].h100_us), figure(d, shapes[i].m2070_ms), "ok");
        } else {
            lab_demodrv_row(rows, "nns------s", (double)shapes[i].x, (double)shapes[i].y, grid,
                            launch_err[i].msg);
            lab_demodrv_note(d,
                             "block (%u,%u) = %u threads is over the limit of %d: CUDA 13 "
                             "reports cudaErrorInvalidValue \"invalid argument\" (the driver "
                             "API's CUDA_ERROR_INVALID_VALUE) where the notes show code 9 "
                             "\"invalid configuration argument\"",
                             shapes[i].x, shapes[i].y, shapes[i].x * shapes[i].y,
                             d->info.max_threads_per_block);
        }
    }
    lab_demodrv_heatmap(d, 0, 1, 3);
    if (lab_demodrv_is_sim(d))
        lab_demodrv_note(d,
                         "on the simulator every shape's sums were checked on %d x %d floats; the "
                         "times at 16384 x 16384 are modelled from its counts on %d x %d and "
                         "%d x %d",
                         side, side, side / 2, side / 2, side, side);
    return 0;
}

/* Under ncu: the inputs filled, then every shape once, in the table's order. */
static int
launch_once(lab_demodrv *d, const kernels *k, lab_err *err)
{
    matrices mx = { .n = (unsigned long long)NX * NY, .nx = NX, .ny = NY };
    void *fargs[] = { &mx.a, &mx.b, &mx.c, &mx.n };
    void *args[] = { &mx.a, &mx.b, &mx.c, &mx.nx, &mx.ny };
    int rc;

    if ((rc = d->ops->alloc(d->dev, mx.n * 4, &mx.a, err)) < 0 ||
        (rc = d->ops->alloc(d->dev, mx.n * 4, &mx.b, err)) < 0 ||
        (rc = d->ops->alloc(d->dev, mx.n * 4, &mx.c, err)) < 0 ||
        (rc = grid_stride(d, k, "labFillMatrix", fargs, err)) < 0)
        return rc;
    for (size_t i = 0; i + 1 < NSHAPES; i++) { /* the last, (256,8), does not launch */
        lab_dim3 block = { shapes[i].x, shapes[i].y, 1 };
        lab_dim3 grid = { (NX + shapes[i].x - 1) / shapes[i].x,
                          (NY + shapes[i].y - 1) / shapes[i].y, 1 };
        if ((rc = d->ops->launch(k->m, k->sum, grid, block, 0, args, err)) < 0)
            return rc;
    }
    return d->ops->sync(d->dev, err);
}

/* Achieved occupancy and load efficiency per shape, filled by the lab from Nsight Compute. */
static void
ncu_section(lab_demodrv *d)
{
    static const char *const metrics[] = {
        "sm__warps_active.avg.pct_of_peak_sustained_active",
        "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",
    };
    static const int columns[] = { 2, 3 };
    cJSON *rows = lab_demodrv_ncu_section(
        d, N_("Achieved occupancy and load efficiency (Nsight Compute)"),
        N_("nvprof's achieved_occupancy is sm__warps_active.avg.pct_of_peak_sustained_active and "
           "gld_efficiency is smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct. The "
           "M2070 measured 49.8 % load efficiency for 16-wide blocks; since Maxwell loads are "
           "served in 32-byte sectors and every shape reads 100 %."),
        "sumMatrix", metrics, columns, 2, 6, N_("block.x"), "", N_("block.y"), "", N_("occupancy"),
        "%", N_("load efficiency"), "%", N_("H100 notes occupancy"), "%",
        N_("M2070 notes occupancy"), "%", N_("ncu"), "", NULL);

    for (size_t i = 0; rows && i + 1 < NSHAPES; i++) /* the last, (256,8), does not launch */
        lab_demodrv_row(rows, "nn--nns", (double)shapes[i].x, (double)shapes[i].y,
                        figure(d, shapes[i].h100_occ), figure(d, shapes[i].m2070_occ), "");
    lab_demodrv_bars(d, 0, 2);
}

/* The notes' kernel is C++: its entry is looked up by name, not spelled here. */
static int
open_kernels(lab_demodrv *d, kernels *k, lab_err *err)
{
    int rc;

    if ((rc = lab_demodrv_load(d, "blockshape.ptx", &k->m, err)) < 0)
        return rc;
    return lab_demodrv_entry(d, "blockshape.ptx", "sumMatrixOnGPU2D", k->sum, sizeof(k->sum), err);
}

static int
run(lab_demodrv *d, lab_err *err)
{
    kernels k = { 0 };

    if (open_kernels(d, &k, err) < 0)
        return lab_demodrv_fail(d, "setup", err);
    if (sweep(d, &k, err) < 0)
        return lab_demodrv_fail(d, "sumMatrixOnGPU2D", err);
    ncu_section(d);
    return 0;
}

static int
ncu_launch(lab_demodrv *d, lab_err *err)
{
    kernels k = { 0 };
    int rc;

    if ((rc = open_kernels(d, &k, err)) < 0)
        return rc;
    return launch_once(d, &k, err);
}

const lab_demo_driver lab_demo_blockshape = {
    .chapter = "blockshape",
    .run = run,
    .ncu_launch = ncu_launch,
};
