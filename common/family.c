/*
 * family.c - the one per-size loop of every family driver (see driver.h):
 * setup and fill, the checks, the checks again on new contents in the same
 * buffers, the timing on two problems; the size's host memory freed after it.
 *
 * A check of one role at one shape: the student's __device__ variables
 * restored, the family's prepare (inputs restored, outputs poisoned), launch,
 * wait, verify, one case.  Timing (common/timing.h) alternates a role's
 * runs between the checked problem and a second one with other buffers and
 * other inputs; every run is prepared the same way, untimed, and a random
 * subset of them verified, so that no timed run can replay an earlier one.
 *
 * A "cpu" baseline is timed on the host after the GPU's roles, or, with
 * --cpu-baseline-only, alone on a host-only problem of the family's
 * (cpu_setup) in a run that opens no device (run_cpu_baseline).
 */
#include "common/choose.h"
#include "common/driver.h"
#include "common/report.h"
#include "lab/util/clock.h"
#include "lab/util/trace.h"

#include <stdio.h>
#include <string.h>

#define TIMING_SETS 2

/* A family's problem, bound for the check and timing callbacks. */
typedef struct bound {
    lab_driver *d;
    const lab_family_driver *f;
    void *problem[TIMING_SETS];
    unsigned long n;
    bool student_only; /* the second round checks the student alone */
} bound;

/* Untimed, before every run: state a kernel could keep between runs is reset. */
static int
prepare(const bound *b, void *problem, lab_role role, lab_dim3 shape, lab_err *err)
{
    int rc;

    if ((rc = lab_driver_reset_globals(b->d, role, err)) < 0)
        return rc;
    return b->f->prepare ? b->f->prepare(problem, role, shape, err) : 0;
}

static int
check(void *ctx, lab_role role, lab_dim3 shape, lab_err *err)
{
    const bound *b = ctx;
    lab_driver *d = b->d;
    void *p = b->problem[0];
    lab_finding found = { .first_bad = -1 };

    if (b->student_only && role != LAB_ROLE_STUDENT)
        return 0;
    if (prepare(b, p, role, shape, err) < 0)
        return lab_driver_fail(d, role, "setup", b->n, err);
    if (b->f->check)
        return b->f->check(p, role, shape, err);
    if (b->f->launch(p, role, shape, err) < 0)
        return lab_driver_fail(d, role, "launch", b->n, err);
    if (d->ops->sync(d->dev, err) < 0 || b->f->verify(p, role, shape, &found, err) < 0)
        return lab_driver_fail(d, role, "run", b->n, err);
    return lab_driver_add_case(d, b->n, role, &found, err);
}

/* One role (or one shape of a sweep) as timing sees it. */
typedef struct timed {
    const bound *b;
    lab_role role;
    lab_dim3 shape;
} timed;

static int
timed_prepare(void *ctx, unsigned set, lab_err *err)
{
    const timed *t = ctx;

    return prepare(t->b, t->b->problem[set], t->role, t->shape, err);
}

static int
timed_launch(void *ctx, unsigned set, lab_err *err)
{
    const timed *t = ctx;

    return t->b->f->launch(t->b->problem[set], t->role, t->shape, err);
}

static int
timed_verify(void *ctx, unsigned set, char *why, size_t why_size, lab_err *err)
{
    const timed *t = ctx;
    lab_finding found = { .first_bad = -1 };
    int rc;

    if ((rc = t->b->f->verify(t->b->problem[set], t->role, t->shape, &found, err)) < 0)
        return rc;
    snprintf(why, why_size, "%s", found.detail);
    return found.bad ? 1 : 0;
}

/* What checking the timed runs found, beside a kernel's times. */
static void
add_verification(cJSON *kernel, const lab_timing_result *r)
{
    cJSON_AddNumberToObject(kernel, "verified", (double)r->verified);
    cJSON_AddBoolToObject(kernel, "wrong", r->wrong);
    if (r->wrong) {
        cJSON_AddNumberToObject(kernel, "wrong_launch", (double)r->wrong_sample);
        cJSON_AddStringToObject(kernel, "wrong_detail", r->why);
    }
}

static void
time_cpu(const lab_family_driver *f, void *problem, lab_stats *out)
{
    enum { MIN_SAMPLES = 5, MAX_SAMPLES = 30 };
    const double cap_s = 1.5;
    double ns[MAX_SAMPLES];
    double start = lab_clock_now();
    size_t k = 0;

    while (k < MAX_SAMPLES && (k < MIN_SAMPLES || lab_clock_now() - start < cap_s)) {
        double t0;
        if (f->cpu_restore)
            f->cpu_restore(problem); /* not timed */
        t0 = lab_clock_now();
        f->cpu(problem);
        ns[k++] = (lab_clock_now() - t0) * 1e9;
    }
    lab_stats_summarize(ns, k, out);
}

/* The CPU baseline timed on problem, appended to a timing's kernels as its "baseline" row. */
static void
add_cpu_timing(cJSON *kernels, const lab_family_driver *f, void *problem, const lab_size *size,
               double peak_gbps, double copy_gbps)
{
    lab_stats cpu;

    time_cpu(f, problem, &cpu);
    lab_report_add_timing(kernels, "baseline", &cpu, size->bytes, peak_gbps, copy_gbps);
    cJSON_AddStringToObject(cJSON_GetArrayItem(kernels, cJSON_GetArraySize(kernels) - 1), "where",
                            "cpu");
}

/* A timing size's object in the report's timings: its kernels' array, or NULL (out of memory). */
static cJSON *
add_size_timing(lab_driver *d, const lab_size *size, bool capped)
{
    cJSON *t = cJSON_CreateObject();

    if (!t)
        return NULL;
    cJSON_AddItemToArray(d->timings, t);
    cJSON_AddNumberToObject(t, "size", (double)size->n);
    cJSON_AddNumberToObject(t, "bytes", size->bytes);
    cJSON_AddNumberToObject(t, "copy_gbps", d->copy_gbps);
    cJSON_AddBoolToObject(t, "capped", capped);
    return cJSON_AddArrayToObject(t, "kernels");
}

/* Every GPU role timed interleaved (the CPU baseline after them, unless --no-cpu-baseline), into
 * the report's timings. */
static int
time_roles(bound *b, const lab_size *size, lab_err *err)
{
    lab_driver *d = b->d;
    lab_timed_kernel kernels[LAB_ROLE_COUNT];
    lab_timing_result results[LAB_ROLE_COUNT];
    timed ctx[LAB_ROLE_COUNT];
    size_t nk = 0;
    cJSON *list;

    for (int r = 0; r < LAB_ROLE_COUNT; r++) {
        if (!lab_driver_is_gpu_role(d, (lab_role)r))
            continue;
        ctx[nk] = (timed){ b, (lab_role)r, d->args.blocks[0] };
        kernels[nk] = (lab_timed_kernel){ lab_role_names[r], timed_prepare, timed_launch,
                                          timed_verify,      &ctx[nk],      TIMING_SETS };
        nk++;
    }
    if (lab_timing_run(&d->timing, kernels, nk, &d->args.timing, results, err) < 0)
        return lab_driver_fail(d, LAB_ROLE_STUDENT, "timing", size->n, err);
    if (!(list = add_size_timing(d, size, results[0].capped)))
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    for (size_t i = 0; i < nk; i++) {
        lab_report_add_timing(list, kernels[i].role, &results[i].ns, size->bytes, d->info.peak_gbps,
                              d->copy_gbps);
        add_verification(cJSON_GetArrayItem(list, cJSON_GetArraySize(list) - 1), &results[i]);
    }
    if (!lab_driver_is_gpu_role(d, LAB_ROLE_BASELINE) && b->f->cpu && !d->args.no_cpu)
        add_cpu_timing(list, b->f, b->problem[0], size, d->info.peak_gbps, d->copy_gbps);
    return 0;
}

/* The student's kernel at every shape of --block (a choice exercise). */
static int
time_sweep(bound *b, const lab_size *size, lab_err *err)
{
    lab_driver *d = b->d;
    lab_timed_kernel kernels[LAB_TIMING_MAX_KERNELS];
    timed ctx[LAB_TIMING_MAX_KERNELS];
    size_t n = d->args.nblocks < LAB_TIMING_MAX_KERNELS ? d->args.nblocks : LAB_TIMING_MAX_KERNELS;

    for (size_t i = 0; i < n; i++) {
        ctx[i] = (timed){ b, LAB_ROLE_STUDENT, d->args.blocks[i] };
        kernels[i] = (lab_timed_kernel){ "student",    timed_prepare, timed_launch,
                                         timed_verify, &ctx[i],       TIMING_SETS };
    }
    return lab_choose_sweep(d, size->n, size->bytes, kernels, n, err);
}

/* A problem of size->n, zeroed, set up and filled (from rng) into *out; <0 when one step failed
 * (the report may already say why). */
static int
new_problem(lab_driver *d, const lab_family_driver *f, lab_size *size, lab_rng *rng, void **out,
            lab_err *err)
{
    void *p = lab_driver_alloc(d, 1, f->problem_size, err);

    if (!p)
        return err->code;
    memset(p, 0, f->problem_size);
    *out = p;
    if (f->setup(d, p, size, err) < 0 || (f->fill && f->fill(p, rng, err) < 0))
        return err->code ? err->code : LAB_EDEVICE;
    return 0;
}

static void
time_size(bound *b, lab_size *size, lab_rng *rng, lab_err *err)
{
    lab_driver *d = b->d;

    if (b->f->untimed || !b->f->launch || !b->f->verify || !b->f->fill)
        return; /* graded on correctness only */
    /* a second problem with other inputs, for the timed runs to alternate */
    if (new_problem(d, b->f, size, rng, &b->problem[1], err) < 0) {
        if (!d->failed)
            lab_driver_fail(d, LAB_ROLE_STUDENT, "timing", size->n, err);
        return;
    }
    if (b->f->adopt)
        b->f->adopt(b->problem[1], b->problem[0]);
    if (d->args.choose_block)
        time_sweep(b, size, err);
    else
        time_roles(b, size, err);
}

static void
run_size(lab_driver *d, const lab_family_driver *f, unsigned long n, lab_rng *rng)
{
    lab_err err = LAB_ERR_INIT;
    lab_size size = { .n = n };
    bound b = { .d = d, .f = f, .n = n };

    d->in_bytes = d->out_bytes = d->in_small_bytes = 0;
    if (new_problem(d, f, &size, rng, &b.problem[0], &err) < 0) {
        if (!d->failed)
            lab_driver_fail(d, LAB_ROLE_STUDENT, "setup", n, &err);
        return;
    }
    lab_trace_mark("n=%lu: inputs and expected values ready", n);
    d->round = 1;
    lab_choose_check_size(d, check, &b, &err);
    lab_trace_mark("n=%lu: checked", n);
    /* the same buffers, other contents: a kernel that replays its last run is wrong now.  Not
     * on the simulator: nothing is timed there, so each size runs the student's kernel once,
     * with its __device__ variables restored, and there is no earlier result to replay */
    if (f->fill && !d->failed && !d->wrong && !lab_driver_is_sim(d) &&
        lab_driver_runs_role(d, LAB_ROLE_STUDENT)) {
        d->round = 2;
        b.student_only = true;
        if (f->fill(b.problem[0], rng, &err) < 0)
            lab_driver_fail(d, LAB_ROLE_STUDENT, "setup", n, &err);
        else
            lab_choose_check_size(d, check, &b, &err);
        d->round = 1;
        b.student_only = false;
        lab_trace_mark("n=%lu: checked again on new inputs", n);
    }
    /* a wrong kernel's speed grades nothing */
    if (!d->failed && !d->wrong && lab_driver_is_timing_size(d, n)) {
        time_size(&b, &size, rng, &err);
        lab_trace_mark("n=%lu: timed", n);
    }
}

static void
run_sizes(lab_driver *d, const lab_family_driver *f)
{
    lab_err err = LAB_ERR_INIT;
    lab_rng rng;

    if (f->begin && f->begin(d, &err) < 0) {
        if (!d->failed)
            lab_driver_fail(d, LAB_ROLE_STUDENT, "setup", 0, &err);
        return;
    }
    lab_rng_seed(&rng, d->args.seed);
    for (size_t s = 0; s < d->args.nsizes && !d->failed; s++) {
        run_size(d, f, d->args.sizes[s], &rng);
        lab_arena_release(&d->size_memory);
    }
}

/* --cpu-baseline-only: the family's CPU baseline timed at every timing size on a problem in
 * host memory alone; no device was opened.  Its bandwidth figures are against no GPU (0 %): the
 * lab computes them again from the GPU run's report. */
static void
run_cpu_baseline(lab_driver *d, const lab_family_driver *f)
{
    lab_err err = LAB_ERR_INIT;
    lab_rng rng;

    if (!f->cpu || !f->cpu_setup) {
        lab_err_set(&err, LAB_EINVAL, "the %s family has no CPU baseline", d->program);
        lab_driver_fail(d, LAB_ROLE_BASELINE, "setup", 0, &err);
        return;
    }
    lab_rng_seed(&rng, d->args.seed);
    for (size_t s = 0; s < d->args.ntiming_sizes && !d->failed; s++) {
        lab_size size = { .n = d->args.timing_sizes[s] };
        void *p = lab_driver_alloc(d, 1, f->problem_size, &err);
        cJSON *list;

        if (p)
            memset(p, 0, f->problem_size);
        if (!p || f->cpu_setup(d, p, &size, &rng, &err) < 0) {
            lab_driver_fail(d, LAB_ROLE_BASELINE, "setup", size.n, &err);
            break;
        }
        lab_trace_mark("n=%lu: the CPU baseline's input ready", size.n);
        if (!(list = add_size_timing(d, &size, false))) {
            lab_err_set(&err, LAB_ENOMEM, "out of memory");
            lab_driver_fail(d, LAB_ROLE_BASELINE, "timing", size.n, &err);
            break;
        }
        add_cpu_timing(list, f, p, &size, 0, 0);
        lab_trace_mark("n=%lu: the CPU baseline timed", size.n);
        lab_arena_release(&d->size_memory);
    }
}

int
lab_driver_main(const lab_family_driver *f, const char *program, int argc, char **argv)
{
    lab_driver d;

    if (lab_driver_start(&d, argc, argv, program) == 0 && !d.args.probe && f) {
        if (d.args.cpu_only)
            run_cpu_baseline(&d, f);
        else
            run_sizes(&d, f);
    }
    return lab_driver_finish(&d);
}
