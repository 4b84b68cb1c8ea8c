/*
 * test-demomodel.c - a demo's modelled times on the simulator (common/demomodel.h): the
 * counts of a launch taken from the simulator's metrics, and the scaling of a demo kernel's
 * counts from 2^16 and 2^18 threads to a larger work against the simulator's own count there
 * (the divergence demo's kernels, build/libexec/cudalab/divergence.ptx).
 */
#include "common/demomodel.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WORK (1u << 19) /* past LAB_DEMOMODEL_WORK: scaled; still affordable to count as is */

typedef struct sim_demo {
    lab_demodrv d;
    lab_module *m;
    lab_dptr c;
} sim_demo;

static void
open_demo(sim_demo *s)
{
    const char *libexec = getenv("CUDALAB_LIBEXECDIR_TEST");
    const char *data = getenv("CUDALAB_DATADIR_TEST");
    lab_err err = LAB_ERR_INIT;
    char path[4096];

    cr_assert(libexec && data, "needs CUDALAB_LIBEXECDIR_TEST and CUDALAB_DATADIR_TEST");
    memset(s, 0, sizeof(*s));
    s->d.ops = &lab_dev_sim;
    s->d.report = cJSON_CreateObject();
    cr_assert_eq(s->d.ops->open(0, &s->d.dev, &err), 0, "%s", err.msg);
    cr_assert_eq(s->d.ops->info(s->d.dev, &s->d.info, &err), 0, "%s", err.msg);
    snprintf(path, sizeof(path), "%s/kernels/gpus/h100.ini", data);
    cr_assert_eq(lab_demomodel_open(&s->d, path, &err), 0, "%s", err.msg);
    snprintf(path, sizeof(path), "%s/divergence.ptx", libexec);
    cr_assert_eq(lab_dev_load_file(s->d.ops, s->d.dev, path, &s->m, &err), 0, "%s", err.msg);
    cr_assert_eq(s->d.ops->alloc(s->d.dev, WORK * sizeof(float), &s->c, &err), 0, "%s", err.msg);
}

static void
close_demo(sim_demo *s)
{
    cJSON_Delete(lab_demomodel_take(&s->d));
    cJSON_Delete(s->d.report);
    s->d.ops->close(s->d.dev);
}

/* The works the launch's last modelled entry was counted at. */
static int
counted(sim_demo *s, double out[2])
{
    cJSON *l = lab_demomodel_take(&s->d), *last = cJSON_GetArrayItem(l, cJSON_GetArraySize(l) - 1);
    cJSON *c = cJSON_GetObjectItem(last, "counted");
    int n = cJSON_GetArraySize(c);

    for (int i = 0; i < n && i < 2; i++)
        out[i] = cJSON_GetArrayItem(c, i)->valuedouble;
    cJSON_Delete(l);
    return n;
}

/* kernel over WORK threads of block 512: its time from counts scaled from 2^16 and 2^18, and
 * from the simulator's count at WORK itself. */
static void
scaled_and_counted(const char *kernel, void **args, double *scaled, double *exact)
{
    sim_demo s;
    lab_err err = LAB_ERR_INIT;
    double works[2] = { 0, 0 };
    lab_demodrv_launch l;

    open_demo(&s);
    l = (lab_demodrv_launch){ .d = &s.d,
                              .m = s.m,
                              .kernel = kernel,
                              .grid = { WORK / 512, 1, 1 },
                              .block = { 512, 1, 1 },
                              .args = args,
                              .work = WORK,
                              .out_bytes = WORK * sizeof(float),
                              .resize = lab_demodrv_resize_grid };
    args[0] = &s.c;
    cr_assert_eq(lab_demomodel_time(&s.d, &l, 1, scaled, &err), 0, "%s", err.msg);
    cr_expect_eq(counted(&s, works), 2, "counted at two works");
    cr_expect_eq(works[0], LAB_DEMOMODEL_WORK / 4);
    cr_expect_eq(works[1], LAB_DEMOMODEL_WORK);
    cr_expect_eq(l.grid.x, WORK / 512, "the launch is put back to its own work");
    l.resize = NULL; /* the same launch, counted as it is */
    cr_assert_eq(lab_demomodel_time(&s.d, &l, 1, exact, &err), 0, "%s", err.msg);
    cr_expect_eq(counted(&s, works), 1, "counted once, at its work");
    cr_expect_eq(works[0], WORK);
    close_demo(&s);
}

Test(demomodel, short_branch_scales_to_its_own_count)
{
    void *args[1];
    double scaled, exact;

    scaled_and_counted("_Z11mathKernel1Pf", args, &scaled, &exact);
    cr_expect_gt(exact, 0);
    cr_expect_lt(fabs(scaled / exact - 1), 0.005, "scaled %.3f us, counted %.3f us", scaled, exact);
}

Test(demomodel, long_branch_scales_to_its_own_count, .timeout = 120)
{
    int mode = 2; /* split by thread: both sides in every warp */
    void *args[2] = { NULL, &mode };
    double scaled, exact;

    scaled_and_counted("_Z10longBranchPfi", args, &scaled, &exact);
    cr_expect_lt(fabs(scaled / exact - 1), 0.005, "scaled %.3f us, counted %.3f us", scaled, exact);
}

Test(demomodel, counts_from_the_metrics)
{
    lab_sim_metrics m = { .warps = 8,
                          .warp_insts = 100,
                          .branches = 7,
                          .divergent = 3,
                          .gld_requests = 11,
                          .gld_sectors = 44,
                          .gst_requests = 13,
                          .gst_sectors = 52,
                          .shared_wavefronts = 9,
                          .gatom_requests = 2,
                          .gld_block_sectors = 40 };
    lab_demodrv_launch l = { .grid = { 4, 2, 1 }, .block = { 32, 4, 1 }, .in_bytes = 1024 };
    lab_model_counts c;

    lab_demomodel_counts(&m, &l, &c);
    cr_expect_eq(c.c[LAB_MODEL_C_WARPS], 8);
    cr_expect_eq(c.c[LAB_MODEL_C_WARP_INSTS], 100);
    cr_expect_eq(c.c[LAB_MODEL_C_DIVERGENT], 3);
    cr_expect_eq(c.c[LAB_MODEL_C_GLD_SECTORS], 44);
    cr_expect_eq(c.c[LAB_MODEL_C_GST_SECTORS], 52);
    cr_expect_eq(c.c[LAB_MODEL_C_SHARED_WAVEFRONTS], 9);
    cr_expect_eq(c.c[LAB_MODEL_C_GATOM_REQUESTS], 2);
    cr_expect_eq(c.c[LAB_MODEL_C_GLD_BLOCK_SECTORS], 40);
    cr_expect_eq(c.c[LAB_MODEL_C_BLOCKS], 8, "the grid's blocks");
    cr_expect_eq(c.c[LAB_MODEL_C_BLOCK_THREADS], 128, "the block's threads");
    cr_expect_eq(c.c[LAB_MODEL_C_IN_BYTES], 1024);
    cr_expect_eq(c.c[LAB_MODEL_C_OUT_BYTES], 0, "not known: the sectors alone count");
}
