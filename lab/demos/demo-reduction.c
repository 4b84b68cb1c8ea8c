/*
 * demo-reduction.c - the reduction chapter's demo: the reference ladder of the
 * integer steps (the notes' reduceInteger program, reduceNeighbored ...
 * reduceCompleteUnroll<512>, then the single pass past the notes) timed in
 * one process on 2^24 ints, block 512, like the notes' table, with the notes'
 * Tesla M2070 times beside; every step's sum is checked first.  A second
 * table times the last rungs on 2^28 ints (1 GiB), where the memory's speed
 * shows, as a share of the theoretical bandwidth.
 *
 * The steps come from the lab (--step, one per exercise of the chapter whose
 * reference compiles, with its launch shape); steps of other families (the
 * float ladder, the CPU recursiveReduce) are not this table's and are left
 * out.  The launch contract is reduce-int's (lab/drivers/reduce-int.c).
 *
 * On the simulator every sum is checked on 2^18 ints (2^24 and 2^28 would take minutes) and
 * the times are modelled (demomodel.h): each rung counted at 2^16 and 2^18 and scaled to 2^24
 * and 2^28.
 */
#include "common/demodrv.h"
#include "lab/util/i18n.h"
#include "common/rng.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_LADDER (1u << 24)
#define N_LARGE (1u << 28)
#define N_SIM_CHECK (1u << 18) /* on the simulator: the size every sum is checked at */
#define SEED 20261122u

/* The notes' table (Tesla M2070, host timer, 2^24 ints, block 512), by kernel name: the figure
 * of docs/numbers.ini each row shows. */
static const struct notes_row {
    const char *kernel;
    const char *m2070_us;
} notes[] = {
    { "reduceNeighbored", "notes.000.neighbored.us" },
    { "reduceNeighboredLess", "notes.000.neighbored_less.us" },
    { "reduceInterleaved", "notes.000.interleaved.us" },
    { "reduceUnrolling2", "notes.000.unrolling2.us" },
    { "reduceUnrolling4", "notes.000.unrolling4.us" },
    { "reduceUnrolling8", "notes.000.unrolling8.us" },
    { "reduceUnrollWarps8", "notes.000.unroll_warps8.us" },
    { "reduceCompleteUnrollWarps8", "notes.000.complete_unroll_warps8.us" },
    { "reduceCompleteUnroll", "notes.000.complete_unroll.us" },
};

/* The rungs timed again at 2^28. */
static const char *const large_rungs[] = { "reduceUnrolling8", "reduceCompleteUnroll",
                                           "reduceSinglePass" };

typedef struct buffers {
    lab_dptr in, pristine, out, zero;
    uint32_t *got; /* the results copied back */
    size_t out_words;
} buffers;

typedef struct rung {
    lab_demodrv *d;
    buffers *b;
    const lab_demodrv_step *step;
    lab_module *m;
    char entry[256];
    lab_dim3 grid, block;
    unsigned n;
    void *args[3];
} rung;

/* The notes' time of kernel in ms; 0 when they have none (or the table is missing). */
static double
m2070_ms(const lab_demodrv *d, const char *kernel)
{
    for (size_t i = 0; i < ARRAY_SIZE(notes); i++)
        if (!strcmp(notes[i].kernel, kernel)) {
            double us = lab_demodrv_figure(d, notes[i].m2070_us);
            return isnan(us) ? 0 : us / 1e3;
        }
    return 0;
}

static bool
is_large_rung(const char *kernel)
{
    for (size_t i = 0; i < ARRAY_SIZE(large_rungs); i++)
        if (!strcmp(large_rungs[i], kernel))
            return true;
    return false;
}

static int
load_rung(lab_demodrv *d, const lab_demodrv_step *s, rung *r, lab_err *err)
{
    int rc;

    memset(r, 0, sizeof(*r));
    r->d = d;
    r->step = s;
    snprintf(r->entry, sizeof(r->entry), "%s", s->entry);
    rc = lab_demodrv_load_path(d, s->module, &r->m, err);
    if (rc == 0 && !d->ops->has_kernel(r->m, r->entry))
        rc = lab_err_set(err, LAB_ENOENT, "'%s' defines no %s", s->module, r->entry);
    return rc;
}

/* The launch of one rung on n elements (reduce-int's contract). */
static void
shape_rung(rung *r, const lab_demodrv *d, unsigned n, buffers *b)
{
    const lab_demodrv_step *s = r->step;
    const size_t per_block = (size_t)s->block.x * s->unroll;

    r->n = n;
    r->b = b;
    r->block = (lab_dim3){ s->block.x, 1, 1 };
    r->grid.x = s->grid_per_sm ? s->grid_per_sm * (unsigned)d->info.sm_count
                               : (unsigned)((n + per_block - 1) / per_block);
    r->grid.y = r->grid.z = 1;
    r->args[0] = &b->in;
    r->args[1] = &b->out;
    r->args[2] = &r->n;
}

/* The model's resize (demodrv.h): the rung on work elements. */
static double
resize_rung(lab_demodrv_launch *l, double work)
{
    rung *r = l->ctx;

    shape_rung(r, r->d, (unsigned)work, r->b);
    l->grid = r->grid;
    return work;
}

/* The launch lab_demodrv_time times: the rung as shaped. */
static lab_demodrv_launch
rung_launch(rung *r)
{
    return (lab_demodrv_launch){ .d = r->d,
                                 .m = r->m,
                                 .kernel = r->entry,
                                 .grid = r->grid,
                                 .block = r->block,
                                 .args = r->args,
                                 .work = r->n,
                                 .in_bytes = 4.0 * r->n,
                                 .out_bytes = 4.0 * (r->step->total ? 1 : r->grid.x),
                                 .resize = resize_rung,
                                 .ctx = r };
}

/* The size a rung's sum is checked at: n, or on the simulator what it affords. */
static unsigned
check_size(const lab_demodrv *d, unsigned n)
{
    return lab_demodrv_is_sim(d) && n > N_SIM_CHECK ? N_SIM_CHECK : n;
}

/* Runs the rung once on the pristine input; *ok when its results add up to sum. */
static int
check_rung(lab_demodrv *d, rung *r, buffers *b, uint32_t sum, bool *ok, lab_err *err)
{
    const size_t words = r->step->total ? 1 : r->grid.x;
    uint32_t got = 0;
    int rc;

    if (words > b->out_words)
        return lab_err_set(err, LAB_EINVAL, "%s needs %zu results", r->step->kernel, words);
    if ((rc = d->ops->copy_dtod(d->dev, b->in, b->pristine, (size_t)r->n * 4, err)) < 0 ||
        (rc = d->ops->copy_dtod(d->dev, b->out, b->zero, 4, err)) < 0 ||
        (rc = d->ops->launch(r->m, r->entry, r->grid, r->block, 0, r->args, err)) < 0 ||
        (rc = d->ops->sync(d->dev, err)) < 0 ||
        (rc = d->ops->copy_out(d->dev, b->got, b->out, words * 4, err)) < 0)
        return rc;
    for (size_t i = 0; i < words; i++)
        got += b->got[i];
    *ok = got == sum;
    return 0;
}

static int
alloc_buffers(lab_demodrv *d, buffers *b, const uint32_t *input, size_t n, lab_err *err)
{
    const uint32_t zero = 0;
    int rc;

    b->out_words = N_LARGE / 64; /* unroll 1 at 2^24, or any ladder rung at 2^28 */
    if (!(b->got = malloc(b->out_words * 4)))
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    if ((rc = d->ops->alloc(d->dev, n * 4, &b->in, err)) < 0 ||
        (rc = d->ops->alloc(d->dev, n * 4, &b->pristine, err)) < 0 ||
        (rc = d->ops->alloc(d->dev, b->out_words * 4, &b->out, err)) < 0 ||
        (rc = d->ops->alloc(d->dev, 4, &b->zero, err)) < 0 ||
        (rc = d->ops->copy_in(d->dev, b->pristine, input, n * 4, err)) < 0 ||
        (rc = d->ops->copy_in(d->dev, b->zero, &zero, 4, err)) < 0)
        return rc;
    return 0;
}

static double
gbps(unsigned n, double us)
{
    return us > 0 ? (double)n * 4 / us / 1e3 : 0;
}

/* The notes' table on this GPU: every rung at 2^24. */
static int
ladder_table(lab_demodrv *d, rung *rungs, size_t n, buffers *b, uint32_t sum, lab_err *err)
{
    lab_demodrv_launch launches[LAB_DEMODRV_MAX_STEPS];
    double us[LAB_DEMODRV_MAX_STEPS], first_us = 0, prev_us = 0, first_ms = 0, prev_ms = 0;
    bool ok[LAB_DEMODRV_MAX_STEPS];
    cJSON *rows;
    int rc;

    for (size_t i = 0; i < n; i++) {
        shape_rung(&rungs[i], d, check_size(d, N_LADDER), b);
        if ((rc = check_rung(d, &rungs[i], b, sum, &ok[i], err)) < 0)
            return lab_demodrv_fail(d, rungs[i].step->kernel, err);
        shape_rung(&rungs[i], d, N_LADDER, b);
        launches[i] = rung_launch(&rungs[i]);
    }
    if ((rc = lab_demodrv_time(d, launches, n, us, err)) < 0)
        return lab_demodrv_fail(d, "timing", err);
    rows = lab_demodrv_section(
        d, N_("The ladder on this GPU, 2^24 ints, block 512"),
        lab_demodrv_is_sim(d)
            ? "Each rung is the chapter's reference solution, checked against the sum on the "
              "simulator first (2^18 ints); its time is the performance model's for the GPU, "
              "from the simulator's counts, not a measurement. Step and cumulative speed-ups are "
              "over the rung above and over reduceNeighbored; the notes' Tesla M2070 figures "
              "beside."
            : "Each rung is the chapter's reference solution, timed with CUDA events (median, L2 "
              "flushed before each launch) and checked against the sum first. Step and "
              "cumulative speed-ups are over the rung above and over reduceNeighbored; the "
              "notes' Tesla M2070 figures beside.",
        N_("kernel"), "", N_("grid"), "blocks", N_("time"), "us", N_("bandwidth"), "GB/s",
        N_("of peak"), "%", N_("step"), "x", N_("cumulative"), "x", N_("M2070"), "ms",
        N_("M2070 step"), "x", N_("M2070 cumulative"), "x", N_("sum"), "", NULL);
    for (size_t i = 0; i < n; i++) {
        const char *k = rungs[i].step->kernel;
        double ms = m2070_ms(d, k);
        cJSON *row =
            lab_demodrv_row(rows, "snnnn", k, (double)rungs[i].grid.x, us[i], gbps(N_LADDER, us[i]),
                            100 * gbps(N_LADDER, us[i]) / d->info.peak_gbps);
        if (i == 0)
            first_us = us[i];
        cJSON_AddItemToArray(row, i ? cJSON_CreateNumber(prev_us / us[i]) : cJSON_CreateNull());
        cJSON_AddItemToArray(row, cJSON_CreateNumber(first_us / us[i]));
        if (ms > 0) {
            first_ms = first_ms > 0 ? first_ms : ms;
            cJSON_AddItemToArray(row, cJSON_CreateNumber(ms));
            cJSON_AddItemToArray(row, prev_ms > 0 ? cJSON_CreateNumber(prev_ms / ms)
                                                  : cJSON_CreateNull());
            cJSON_AddItemToArray(row, cJSON_CreateNumber(first_ms / ms));
            prev_ms = ms;
        } else {
            for (int c = 0; c < 3; c++)
                cJSON_AddItemToArray(row, cJSON_CreateNull());
        }
        cJSON_AddItemToArray(row, cJSON_CreateString(ok[i] ? "ok" : "WRONG"));
        prev_us = us[i];
    }
    lab_demodrv_bars(d, 0, 2);
    if (n > 1)
        lab_demodrv_note(d,
                         lab_demodrv_is_sim(d)
                             ? N_("from %s to %s: %.2fx on this GPU (modelled); the notes' M2070 "
                                  "went from %s us to %s us (%sx) over their nine rungs")
                             : N_("from %s to %s: %.2fx on this GPU; the notes' M2070 went from "
                                  "%s us to %s us (%sx) over their nine rungs"),
                         rungs[0].step->kernel, rungs[n - 1].step->kernel, first_us / us[n - 1],
                         lab_demodrv_figure_text(d, "notes.000.neighbored.us"),
                         lab_demodrv_figure_text(d, "notes.000.complete_unroll.us"),
                         lab_demodrv_figure_text(d, "notes.000.complete_unroll.cumulative.x"));
    return 0;
}

/* The last rungs at 2^28: how close each gets to the memory's speed. */
static int
large_table(lab_demodrv *d, rung *rungs, size_t n, buffers *b, uint32_t sum, lab_err *err)
{
    lab_demodrv_launch launches[ARRAY_SIZE(large_rungs)];
    rung *picked[ARRAY_SIZE(large_rungs)];
    double us[ARRAY_SIZE(large_rungs)];
    bool ok[ARRAY_SIZE(large_rungs)];
    size_t m = 0;
    cJSON *rows;
    int rc;

    for (size_t i = 0; i < n && m < ARRAY_SIZE(picked); i++) {
        if (!is_large_rung(rungs[i].step->kernel))
            continue;
        shape_rung(&rungs[i], d, check_size(d, N_LARGE), b);
        if ((rc = check_rung(d, &rungs[i], b, sum, &ok[m], err)) < 0)
            return lab_demodrv_fail(d, rungs[i].step->kernel, err);
        shape_rung(&rungs[i], d, N_LARGE, b);
        launches[m] = rung_launch(&rungs[i]);
        picked[m++] = &rungs[i];
    }
    if (!m)
        return 0;
    if ((rc = lab_demodrv_time(d, launches, m, us, err)) < 0)
        return lab_demodrv_fail(d, "timing", err);
    rows = lab_demodrv_section(
        d, N_("The last rungs at 2^28 ints (1 GiB)"),
        lab_demodrv_is_sim(d)
            ? "At 64 MiB launch and tail costs cap every kernel; at 1 GiB the memory's speed "
              "shows. Peak is the theoretical bandwidth of the GPU modelled; copy is the model's "
              "rate for a device-to-device copy (peak x its DRAM efficiency)."
            : "At 64 MiB launch and tail costs cap every kernel; at 1 GiB the memory's speed "
              "shows. Peak is the theoretical bandwidth (2 x memory clock x bus width); copy is a "
              "device-to-device copy measured in the same run.",
        N_("kernel"), "", N_("grid"), "blocks", N_("time"), "us", N_("bandwidth"), "GB/s",
        N_("of peak"), "%", N_("of copy"), "%", N_("sum"), "", NULL);
    for (size_t i = 0; i < m; i++)
        lab_demodrv_row(rows, "snnnnns", picked[i]->step->kernel, (double)picked[i]->grid.x, us[i],
                        gbps(N_LARGE, us[i]), 100 * gbps(N_LARGE, us[i]) / d->info.peak_gbps,
                        d->copy_gbps > 0 ? 100 * gbps(N_LARGE, us[i]) / d->copy_gbps : 0,
                        ok[i] ? "ok" : "WRONG");
    lab_demodrv_bars(d, 0, 3);
    return 0;
}

static int
run(lab_demodrv *d, lab_err *err)
{
    rung rungs[LAB_DEMODRV_MAX_STEPS];
    buffers b = { 0 };
    uint32_t *input = NULL, sum_ladder = 0, sum_large = 0;
    const size_t n_input = check_size(d, N_LARGE);
    size_t n = 0;
    lab_rng rng;
    int rc;

    for (size_t i = 0; i < d->nsteps; i++) {
        if (strcmp(d->steps[i].family, "reduce-int"))
            continue;
        if (load_rung(d, &d->steps[i], &rungs[n], err) < 0)
            return lab_demodrv_fail(d, d->steps[i].id, err);
        n++;
    }
    if (!n) {
        lab_demodrv_note(d, "no integer reduction step's reference compiled: nothing to run");
        return 0;
    }
    if (!(input = malloc(n_input * 4))) {
        lab_err_set(err, LAB_ENOMEM, "out of memory for %zu ints", n_input);
        return lab_demodrv_fail(d, "input", err);
    }
    lab_rng_seed(&rng, SEED);
    lab_rng_fill_bytes(&rng, input, n_input);
    for (size_t i = 0; i < n_input; i++) {
        sum_large += input[i];
        if (i < check_size(d, N_LADDER))
            sum_ladder += input[i];
    }
    if (lab_demodrv_is_sim(d))
        lab_demodrv_note(d,
                         "on the simulator every sum was checked on 2^18 ints; the times at 2^24 "
                         "and 2^28 are modelled from its counts at 2^16 and 2^18");
    if ((rc = alloc_buffers(d, &b, input, n_input, err)) < 0)
        lab_demodrv_fail(d, "buffers", err);
    else if ((rc = ladder_table(d, rungs, n, &b, sum_ladder, err)) == 0)
        rc = large_table(d, rungs, n, &b, sum_large, err);
    lab_demodrv_note(d,
                     "the notes timed with a host clock around the launch and "
                     "cudaDeviceSynchronize(): on an H100 that adds about %s us to every figure",
                     lab_demodrv_figure_text(d, "h100.reduce.host_timer.overhead.us"));
    free(input);
    free(b.got);
    return rc;
}

const lab_demo_driver lab_demo_reduction = {
    .chapter = "reduction",
    .run = run,
};
