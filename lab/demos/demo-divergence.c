/*
 * demo-divergence.c - the divergence chapter's demo: the notes'
 * simpleDivergence kernels (kernels/divergence.cu) timed with CUDA events on
 * 2^22 floats at blocks of 64 and 512, their outputs counted (mathKernel4's
 * precedence bug shows as "all 200"), and a kernel whose branch bodies are too
 * long to predicate, where divergence costs real time.  Its two sides do not
 * cost the same, so the divided kernels are compared with the mean of the
 * two uniform ones (the same work, no warp divided), not with one of them.  Branch efficiency
 * needs Nsight Compute, which the lab runs on this demo's --ncu-child (its
 * table says why where it cannot).
 *
 * On the simulator the outputs are the simulator's, at the full 2^22; the times are modelled
 * (demomodel.h): every kernel is counted at 2^16 and 2^18 threads and scaled to 2^22.
 */
#include "common/demodrv.h"
#include "lab/util/i18n.h"
#include "common/demomodel.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N (1u << 22)

/* expected value of c[tid]: 100 or 200 */
typedef float (*expect_fn)(unsigned tid);

static float
by_thread(unsigned tid)
{
    return tid % 2 == 0 ? 100.0f : 200.0f;
}

static float
by_warp(unsigned tid)
{
    return (tid / 32) % 2 == 0 ? 100.0f : 200.0f;
}

static float
always_200(unsigned tid)
{
    (void)tid;
    return 200.0f;
}

static const struct math_kernel {
    const char *name;
    const char *mangled;
    const char *condition;
    expect_fn expect;
    const char *h100_us;  /* this demo's recorded H100 run, block 512 (docs/numbers.ini) */
    const char *g_branch; /* ncu's branch efficiency of the -G build on the H100; NULL: none */
} math_kernels[] = {
    { "mathKernel1", "_Z11mathKernel1Pf", "tid % 2 == 0", by_thread,
      "h100.demo.divergence.mathkernel1.block512.us",
      "h100.divergence.g.mathkernel1.branch_efficiency.pct" },
    { "mathKernel2", "_Z11mathKernel2Pf", "(tid / warpSize) % 2 == 0", by_warp,
      "h100.demo.divergence.mathkernel2.block512.us",
      "h100.divergence.g.mathkernel2.branch_efficiency.pct" },
    { "mathKernel3", "_Z11mathKernel3Pf", N_("two ifs on tid % 2 == 0"), by_thread,
      "h100.demo.divergence.mathkernel3.block512.us",
      "h100.divergence.g.mathkernel3.branch_efficiency.pct" },
    { "mathKernel4", "_Z11mathKernel4Pf", N_("itid & 0x01 == 0 (bug)"), always_200,
      "h100.demo.divergence.mathkernel4.block512.us",
      "h100.divergence.g.mathkernel4.branch_efficiency.pct" },
    { "mathKernel4fixed", "_Z16mathKernel4fixedPf", "(itid & 0x01) == 0", by_warp,
      "h100.demo.divergence.mathkernel4fixed.block512.us", NULL },
};
#define NMATH (sizeof(math_kernels) / sizeof(math_kernels[0]))

static const struct long_mode {
    const char *name;
    const char *split;
    int mode;            /* longBranch's argument */
    const char *h100_us; /* this demo's recorded H100 run, block 512 (docs/numbers.ini) */
} long_modes[] = {
    { N_("longBranch uniform, FMA side"), N_("all lanes: 128 multiply-adds"), 0,
      "h100.demo.divergence.fma_side.us" },
    { N_("longBranch uniform, rsqrt side"), N_("all lanes: 128 square roots"), 3,
      "h100.demo.divergence.rsqrt_side.us" },
    { N_("longBranch by warp"), N_("(tid / 32) % 2: whole warps"), 1,
      "h100.demo.divergence.by_warp.us" },
    { N_("longBranch by thread"), N_("tid % 2: both sides in every warp"), 2,
      "h100.demo.divergence.by_thread.us" },
};
#define NLONG (sizeof(long_modes) / sizeof(long_modes[0]))

/* A launch of one thread per element of c, N of them (the model counts fewer and scales). */
static lab_demodrv_launch
one_per_thread(lab_demodrv *d, lab_module *m, const char *kernel, unsigned block, void **args)
{
    return (lab_demodrv_launch){ .d = d,
                                 .m = m,
                                 .kernel = kernel,
                                 .grid = { N / block, 1, 1 },
                                 .block = { block, 1, 1 },
                                 .args = args,
                                 .work = N,
                                 .out_bytes = N * sizeof(float),
                                 .resize = lab_demodrv_resize_grid };
}

/* Runs each math kernel once at block 512 and counts its 100s and 200s. */
static int
check_outputs(lab_demodrv *d, lab_module *m, lab_dptr c, float *host, unsigned *n100,
              unsigned *n200, unsigned *wrong, lab_err *err)
{
    lab_dim3 grid = { N / 512, 1, 1 }, block = { 512, 1, 1 };
    void *args[] = { &c };
    int rc;

    for (size_t k = 0; k < NMATH; k++) {
        n100[k] = n200[k] = wrong[k] = 0;
        memset(host, 0, N * sizeof(float));
        if ((rc = d->ops->copy_in(d->dev, c, host, N * sizeof(float), err)) < 0 ||
            (rc = d->ops->launch(m, math_kernels[k].mangled, grid, block, 0, args, err)) < 0 ||
            (rc = d->ops->sync(d->dev, err)) < 0 ||
            (rc = d->ops->copy_out(d->dev, host, c, N * sizeof(float), err)) < 0)
            return rc;
        for (unsigned i = 0; i < N; i++) {
            n100[k] += host[i] == 100.0f;
            n200[k] += host[i] == 200.0f;
            wrong[k] += host[i] != math_kernels[k].expect(i);
        }
    }
    return 0;
}

static int
math_section(lab_demodrv *d, lab_module *m, lab_dptr c, lab_err *err)
{
    static const unsigned blocks[] = { 64, 512 };
    lab_demodrv_launch l[2 * NMATH];
    double us[2 * NMATH];
    unsigned n100[NMATH], n200[NMATH], wrong[NMATH];
    float *host = malloc(N * sizeof(float));
    void *args[] = { &c };
    cJSON *rows;
    int rc;

    if (!host)
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    for (size_t b = 0; b < 2; b++)
        for (size_t k = 0; k < NMATH; k++)
            l[b * NMATH + k] = one_per_thread(d, m, math_kernels[k].mangled, blocks[b], args);
    rc = check_outputs(d, m, c, host, n100, n200, wrong, err);
    free(host);
    if (rc < 0 || (rc = lab_demodrv_time(d, l, 2 * NMATH, us, err)) < 0)
        return rc;
    rows = lab_demodrv_section(
        d, N_("mathKernel1-4: short branches, 2^22 floats"),
        N_("The notes' kernels, built as the lab builds them (optimised). Each branch only picks "
           "a constant, so the compiler replaces it with a select: no warp takes two paths, and "
           "all kernels take the same time whatever their condition. At block 64 the GPU is "
           "limited by how fast it starts 65536 tiny blocks, not by the kernels."),
        N_("kernel"), "", N_("condition"), "", N_("block 64"), "us", N_("block 512"), "us",
        N_("c = 100"), "", N_("c = 200"), "", N_("wrong"), "", N_("H100 notes, block 512"), "us",
        NULL);
    for (size_t k = 0; k < NMATH; k++)
        lab_demodrv_row(rows, "ssnnnnnn", math_kernels[k].name, math_kernels[k].condition, us[k],
                        us[NMATH + k], (double)n100[k], (double)n200[k], (double)wrong[k],
                        lab_demodrv_figure(d, math_kernels[k].h100_us));
    lab_demodrv_bars(d, 0, 3);
    if (n100[3] == 0)
        lab_demodrv_note(d, "mathKernel4 wrote 200 everywhere: `itid & 0x01 == 0` is "
                            "`itid & (0x01 == 0)`, i.e. `itid & 0`, never true; "
                            "mathKernel4fixed adds the parentheses");
    return 0;
}

static int
long_section(lab_demodrv *d, lab_module *m, lab_dptr c, lab_err *err)
{
    lab_demodrv_launch l[NLONG];
    int modes[NLONG];
    void *args[NLONG][2];
    double us[NLONG], mix;
    cJSON *rows;
    int rc;

    for (size_t i = 0; i < NLONG; i++) {
        modes[i] = long_modes[i].mode;
        args[i][0] = &c;
        args[i][1] = &modes[i];
        l[i] = one_per_thread(d, m, "_Z10longBranchPfi", 512, args[i]);
    }
    if ((rc = lab_demodrv_time(d, l, NLONG, us, err)) < 0)
        return rc;
    mix = (us[0] + us[1]) / 2; /* half the threads on each side, no warp divided */
    rows = lab_demodrv_section(
        d, N_("Long branches: divergence that costs time"),
        N_("Each side of the branch is 128 dependent instructions of a different kind, too long "
           "to predicate: multiply-adds on one side, square roots on the other. The sides do not "
           "cost the same: square roots run on the SM's few special-function units. So the "
           "kernels that split the threads are compared with the mean of the two uniform runs, "
           "the same work with no warp divided. Split by warp, each warp still runs one side: no "
           "extra time. Split by thread, every warp runs both sides one after the other, the "
           "other lanes masked off: up to twice the time."),
        N_("kernel"), "", N_("split"), "", N_("time"), "us", N_("same work undivided"), "us",
        N_("vs undivided"), "x", N_("H100 earlier run"), "us", NULL);
    for (size_t i = 0; i < NLONG; i++) {
        double ref = i < 2 ? us[i] : mix;
        lab_demodrv_row(rows, "ssnnnn", long_modes[i].name, long_modes[i].split, us[i], ref,
                        ref > 0 ? us[i] / ref : 0, lab_demodrv_figure(d, long_modes[i].h100_us));
    }
    lab_demodrv_bars(d, 0, 2);
    return 0;
}

/* Under ncu: every kernel of the tables once, block 512, in the order of ncu_section's rows. */
static int
launch_once(lab_demodrv *d, lab_module *m, lab_dptr c, lab_err *err)
{
    lab_dim3 grid = { N / 512, 1, 1 }, block = { 512, 1, 1 };
    void *args[] = { &c };
    int rc;

    for (size_t k = 0; k < NMATH; k++)
        if ((rc = d->ops->launch(m, math_kernels[k].mangled, grid, block, 0, args, err)) < 0)
            return rc;
    for (size_t i = 0; i < NLONG; i++) {
        int mode = long_modes[i].mode;
        void *largs[] = { &c, &mode };
        if ((rc = d->ops->launch(m, "_Z10longBranchPfi", grid, block, 0, largs, err)) < 0)
            return rc;
    }
    return d->ops->sync(d->dev, err);
}

/* Branch efficiency per kernel, filled by the lab from Nsight Compute (block 512). */
static void
ncu_section(lab_demodrv *d)
{
    static const char *const metrics[] = {
        "smsp__sass_average_branch_targets_threads_uniform.pct",
    };
    static const int columns[] = { 1 };
    cJSON *rows = lab_demodrv_ncu_section(
        d, N_("Branch efficiency (Nsight Compute)"),
        N_("nvprof's branch_efficiency is smsp__sass_average_branch_targets_threads_uniform.pct "
           "in Nsight Compute. The optimised mathKernels have no branch left, and ncu then "
           "prints 0, not 100. The notes' column is from a -G (unoptimised) build, where the "
           "branches stay."),
        "mathKernel|longBranch", metrics, columns, 1, 3, N_("kernel"), "", N_("here"), "%",
        N_("H100 notes"), "%", N_("ncu"), "", NULL);

    /* the column is the -G build's (the notes' profile of branches that stay): the optimised
     * long branch has no such figure, and its own is in the chapter */
    for (size_t i = 0; rows && i < NMATH + NLONG; i++) {
        const char *name = i < NMATH ? math_kernels[i].name : long_modes[i - NMATH].name;
        const char *g = i < NMATH ? math_kernels[i].g_branch : NULL;
        lab_demodrv_row(rows, "s-ns", name, g ? lab_demodrv_figure(d, g) : NAN, "");
    }
}

/* The kernels' module and the output buffer every kernel writes. */
static int
open_kernels(lab_demodrv *d, lab_module **m, lab_dptr *c, lab_err *err)
{
    int rc;

    if ((rc = lab_demodrv_load(d, "divergence.ptx", m, err)) < 0 ||
        (rc = d->ops->alloc(d->dev, N * sizeof(float), c, err)) < 0)
        return lab_demodrv_fail(d, "setup", err);
    return 0;
}

static int
run(lab_demodrv *d, lab_err *err)
{
    lab_module *m = NULL;
    lab_dptr c = 0;
    int rc;

    if ((rc = open_kernels(d, &m, &c, err)) == 0) {
        if ((rc = math_section(d, m, c, err)) < 0)
            lab_demodrv_fail(d, "mathKernel1-4", err);
        else if ((rc = long_section(d, m, c, err)) < 0)
            lab_demodrv_fail(d, "longBranch", err);
        else
            ncu_section(d);
    }
    if (lab_demodrv_is_sim(d))
        lab_demodrv_note(d,
                         N_("the notes time each kernel with gettimeofday around launch and "
                            "cudaDeviceSynchronize: at their default of 64 elements that reads "
                            "%s us per kernel on an H100, nearly all of it launch and "
                            "synchronisation; this demo models the kernel's own time (launch "
                            "cost included)"),
                         lab_demodrv_figure_text(d, "h100.device.notes_timer.overhead.us"));
    else
        lab_demodrv_note(d,
                         N_("the notes time each kernel with gettimeofday around launch and "
                            "cudaDeviceSynchronize: at their default of 64 elements that reads "
                            "%s us per kernel on an H100, nearly all of it launch and "
                            "synchronisation; this demo uses CUDA events"),
                         lab_demodrv_figure_text(d, "h100.device.notes_timer.overhead.us"));
    return rc;
}

static int
ncu_launch(lab_demodrv *d, lab_err *err)
{
    lab_module *m = NULL;
    lab_dptr c = 0;
    int rc;

    if ((rc = open_kernels(d, &m, &c, err)) < 0)
        return rc;
    return launch_once(d, m, c, err);
}

const lab_demo_driver lab_demo_divergence = {
    .chapter = "divergence",
    .run = run,
    .ncu_launch = ncu_launch,
};
