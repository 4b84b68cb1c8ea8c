/*
 * grade.c - the grading pipeline (see grade.h).
 */
#include "lab/grade/grade.h"
#include "lab/util/i18n.h"
#include "lab/build/ptx.h"
#include "lab/build/constraints.h"
#include "lab/catalog/family.h"
#include "lab/grade/beside.h"
#include "lab/grade/compile.h"
#include "lab/grade/env.h"
#include "lab/grade/expected.h"
#include "lab/grade/gradeargs.h"
#include "lab/grade/runner.h"
#include "lab/platform/devlock.h"
#include "lab/util/trace.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *const stage_names[] = {
    [LAB_STAGE_COMPILE] = N_("compiling"),
    [LAB_STAGE_CHECK] = N_("checking"),
    [LAB_STAGE_RUN] = N_("running on"),
    [LAB_STAGE_RECORD] = N_("recording"),
};
_Static_assert(ARRAY_SIZE(stage_names) == LAB_STAGE_COUNT, "one name per stage");

const char *
lab_stage_name(lab_stage s)
{
    return (unsigned)s < LAB_STAGE_COUNT ? _(stage_names[s]) : "";
}

void
lab_grading_init(lab_grading *g)
{
    memset(g, 0, sizeof(*g));
    lab_buf_init(&g->report_json);
    lab_buf_init(&g->compiler_log);
    lab_buf_init(&g->model_kept);
}

void
lab_grading_release(lab_grading *g)
{
    if (g->has_report)
        lab_runreport_release(&g->report);
    lab_buf_release(&g->report_json);
    lab_buf_release(&g->compiler_log);
    lab_buf_release(&g->model_kept);
}

static void
stage(const lab_grade_request *req, lab_stage s, const char *what)
{
    lab_trace_mark("stage %d: %s", (int)s, what);
    if (req->on_stage)
        req->on_stage(s, what, req->arg);
}

static int
record(lab *l, const lab_grade_request *req, lab_grading *g, lab_err *err)
{
    lab_store *st;
    lab_attempt a = { 0 };
    int rc;

    if ((rc = lab_store_of(l, &st, err)) < 0)
        return rc;
    a.exercise = req->ex->id;
    a.file = req->file;
    a.file_hash = g->file_hash;
    a.time = (int64_t)time(NULL);
    a.backend = g->backend[0] ? g->backend : "none";
    a.device = g->device.name;
    a.verdict = lab_verdict_describe(g->result.verdict)->name;
    a.message = g->result.message;
    a.cases_json = g->report_json.len ? g->report_json.buf : "";
    a.median_ns = g->result.median_ns;
    a.speedup = g->result.speedup;
    a.fraction = g->result.fraction;
    a.points = g->result.points;
    return lab_store_add_attempt(st, &a, NULL, err);
}

/* A report that says every case was right must have the student's case at every size: one
 * cut short, or not the driver's, is a lab error, never a verdict. */
static int
check_complete(const lab_runreport *r, const unsigned long *sizes, size_t nsizes, lab_err *err)
{
    for (size_t i = 0; i < r->ncases; i++)
        if (!r->cases[i].correct)
            return 0; /* a wrong case: nothing to gain by forging the report */
    if (strcmp(r->status, "ok"))
        return 0;
    for (size_t s = 0; s < nsizes; s++) {
        bool found = false;
        for (size_t i = 0; i < r->ncases && !found; i++)
            found = r->cases[i].size == sizes[s] && !strcmp(r->cases[i].role, "student");
        if (!found)
            return lab_err_set(err, LAB_EPARSE,
                               "the driver's report has no case of the student's code at n = %lu: "
                               "it was cut short, or not written by the driver",
                               sizes[s]);
    }
    return 0;
}

/* What to do next when the driver ended without a report: no kernel fault (those are reported),
 * so not the usual index past the end. */
static const char *const no_report_advice =
    N_("the driver stopped before it could report: a kernel that asks for far more memory or "
       "stack than a GPU has can end it so; if yours does not, the failure is the lab's: run "
       "`cudalab doctor` and report it with this message");

/* On the simulator the student's build was its PTX alone: ptxas's checks of it (too much
 * shared data is an error on every GPU), which the verdict needs, run while the simulator does.
 * 1 and a COMPILE_ERROR when ptxas refuses it, 0 when it accepts, <0 a lab error (the file
 * changed in the meantime, or nvcc could not run). */
static int
ptxas_beside(lab *l, const lab_grade_request *req, lab_grading *g, const lab_build *ptx,
             lab_err *err)
{
    lab_build full;
    int rc;

    lab_build_init(&full);
    rc = lab_compile_file(l, req->ex, req->file, g->arch, req->cancel, true, &full, err);
    if (rc == 0 && memcmp(full.hash, ptx->hash, sizeof(full.hash)))
        rc = lab_err_set(err, LAB_EINVAL, _("%s changed while it was graded: grade it again"),
                         req->file);
    if (rc == 0 && !full.ok) {
        lab_buf_add(&g->compiler_log, full.log.buf, full.log.len);
        if (full.timed_out)
            lab_grade_set(&g->result, req->ex, LAB_VERDICT_COMPILE_ERROR,
                          _("nvcc did not finish within %.0f s"), req->ex->build_timeout_s);
        else
            lab_grade_set(&g->result, req->ex, LAB_VERDICT_COMPILE_ERROR, _("%s does not compile"),
                          req->file);
        rc = 1;
    }
    lab_build_release(&full);
    return rc;
}

/* lab_runner_run on the simulator, with ptxas_beside while the driver runs: 1 when ptxas
 * refused (the driver stopped, the verdict set), else as lab_runner_run. */
static int
run_sim_with_ptxas(lab *l, const lab_grade_request *req, lab_grading *g, const lab_build *ptx,
                   const lab_strvec *args, lab_proc *p, lab_err *err)
{
    lab_err ignored = LAB_ERR_INIT;
    int rc, checked;

    if ((rc = lab_runner_start(l, req->ex->family, args, req->ex->run_timeout_s, req->cancel, true,
                               p, err)) < 0)
        return rc;
    if ((checked = ptxas_beside(l, req, g, ptx, err)) != 0) {
        lab_proc_kill(p);
        lab_proc_finish(p, &ignored);
        return checked;
    }
    return lab_runner_finish(p, req->ex->family, err);
}

/* Whether a parsed report found the student's kernel right at every case: only then is the
 * model's run worth waiting for. */
static bool
all_correct(const lab_runreport *r)
{
    if (strcmp(r->status, "ok"))
        return false;
    for (size_t i = 0; i < r->ncases; i++)
        if (!r->cases[i].correct)
            return false;
    return true;
}

/* What the judge asks where a step's lesson does not show in time (lab_evidence.unchanged):
 * whether the student's code is the exercise's starter (built here, cached like any build) or
 * the step before's kernel (the baseline's PTX, built already), names set aside
 * (lab_ptx_same_code). */
struct unchanged_ask {
    lab *l;
    const lab_grade_request *req;
    const lab_grading *g;
    const lab_build *student;
    const lab_build *baseline; /* NULL: the CPU's */
    const lab_exercise *base_ex;
    bool on_sim;
};

static const char *
unchanged(void *arg)
{
    const struct unchanged_ask *a = arg;
    const lab_exercise *ex = a->req->ex;
    lab_buf entry = LAB_BUF_INIT, base_entry = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    const char *which = NULL;
    lab_build starter;

    lab_build_init(&starter);
    if (!a->student->ok || lab_runner_entry(ex, &entry, &err) < 0)
        goto out;
    if (ex->starter &&
        lab_compile_file_for(a->l, ex, ex->starter, a->g->arch, a->req->cancel, false, a->on_sim,
                             &starter, &err) == 0 &&
        starter.ok && lab_ptx_same_code(a->student->ptx.buf, entry.buf, starter.ptx.buf, entry.buf))
        which = N_("the starter");
    else if (a->baseline && a->baseline->ok &&
             lab_runner_entry(a->base_ex, &base_entry, &err) == 0 &&
             lab_ptx_same_code(a->student->ptx.buf, entry.buf, a->baseline->ptx.buf,
                               base_entry.buf))
        which = N_("the step before's kernel");
    lab_trace_mark("unchanged: %s%s", which ? which : "no", err.code ? err.msg : "");
out:
    lab_build_release(&starter);
    lab_buf_release(&entry);
    lab_buf_release(&base_entry);
    return which;
}

/* early: the GPU's driver lab_runner_prestart started while the student's file compiled, or
 * NULL; one this grading does not use (the simulator runs it) is stopped here. */
static int
run_and_judge(lab *l, const lab_grade_request *req, const lab_family *fam, lab_grading *g,
              lab_build *student, lab_build *baseline, lab_build *reference,
              const lab_exercise *base_ex, lab_proc *early, lab_err *err)
{
    const lab_exercise *ex = req->ex;
    lab_strvec args = LAB_STRVEC_INIT;
    lab_buf tables = LAB_BUF_INIT; /* what gave the expected numbers, or why nothing did */
    bool from_tables = false;
    lab_devlock lock;
    lab_proc own, *p = &own, simp, modelp, cpup;
    bool sim_started = false, model_started = false, cpu_started = false, has_check = false;
    lab_runreport check; /* the simulator's check beside a GPU run */
    lab_evidence ev = { 0 };
    char how[128];
    int rc;

    bool sim = !strcmp(g->backend, "sim");
    const unsigned long cap = sim ? lab_family_sim_limit(fam, g->sim_max_size) : 0;
    unsigned long sizes[16], model_sizes[2];
    size_t nsizes = 0;
    struct unchanged_ask ask = { l, req, g, student, base_ex ? baseline : NULL, base_ex, sim };

    lab_devlock_init(&lock);
    lab_proc_init(&own);
    lab_proc_init(&simp);
    lab_proc_init(&modelp);
    lab_proc_init(&cpup);
    g->sizes_capped = lab_grading_sizes(ex, cap, sizes, ARRAY_SIZE(sizes), &nsizes);
    lab_grading_capped_text(ex, cap, g->sizes_cut, sizeof(g->sizes_cut));
    lab_grading_driver_args(l, ex, base_ex, g, g->backend, student, baseline, reference, sizes,
                            nsizes, &args);
    if (ex->ntiming_sizes && !sim)
        lab_runner_sizes_arg(&args, "timing-sizes", ex->timing_sizes, ex->ntiming_sizes);
    /* nothing is timed on the simulator: the lab's own kernels have nothing to show there, and
     * check-exercise grades the reference as a student */
    if (sim)
        lab_strvec_push(&args, "--student-only");
    /* host code whose reference numbers a GPU would give: the lab's tables give them without
     * one, for the architecture graded for */
    if (ex->kind == LAB_KIND_HOST && !g->device.present) {
        if ((rc = lab_expected_args(l, ex, g->arch, sizes, nsizes, req->cancel, &args, &tables,
                                    err)) < 0) {
            lab_strvec_release(&args);
            goto out;
        }
        from_tables = rc == 1;
    }
    /* the simulator's checks run on the CPU while the GPU measures */
    lab_beside_start_check(l, req, fam, g, student, baseline, reference, base_ex, &simp,
                           &sim_started);
    /* on the simulator, the three roles' counts for the performance model, beside it */
    lab_beside_start_model(l, ex, fam, g, student, baseline, reference, base_ex, sizes, nsizes,
                           model_sizes, &modelp, &model_started);
    /* on a GPU, a "cpu" baseline timed by a driver of its own, outside the GPU's lock */
    lab_beside_start_cpu(l, req, g, base_ex, &args, &cpup, &cpu_started);
    lab_trace_mark("driver: starting%s%s%s", sim_started ? " (the simulator's check started)" : "",
                   model_started ? " (the model's run started)" : "",
                   cpu_started ? " (the CPU baseline's run started)" : "");
    /* host code and the simulator leave the GPU alone: no need to wait for it */
    if (early && sim) {
        lab_proc_release(early); /* started for a GPU that does not run this grading */
        early = NULL;
    }
    if (sim && ex->kind != LAB_KIND_HOST && !student->has_cubin)
        rc = run_sim_with_ptxas(l, req, g, student, &args, p, err);
    else if (ex->kind == LAB_KIND_HOST || sim)
        rc = lab_runner_run(l, ex->family, &args, ex->run_timeout_s, req->cancel, true, p, err);
    else if (early)
        rc = lab_runner_run_prestarted(l, ex->family, &args, req->cancel, &g->device, &lock,
                                       p = early, err);
    else
        rc = lab_runner_run_locked(l, ex->family, &args, ex->run_timeout_s, req->cancel, &g->device,
                                   &lock, p, err);
    lab_devlock_release(&lock);
    lab_strvec_release(&args);
    lab_trace_mark("driver: done");
    if (rc == 1) { /* ptxas refused what the simulator ran: the verdict is set */
        rc = 0;
        goto out;
    }
    if (rc < 0)
        goto out;
    if (p->cancelled) {
        rc = lab_err_set(err, LAB_ECANCEL, _("cancelled"));
        goto out;
    }
    if (p->timed_out) {
        lab_grade_set(&g->result, ex, LAB_VERDICT_TIMEOUT,
                      _("%s did not finish within %.0f s; the lab stopped it"), ex->kernel,
                      ex->run_timeout_s);
        goto out;
    }
    if (p->flooded) { /* the device printf of every thread, flushed to the driver's stdout */
        lab_grade_printf_flood(
            &g->result, ex, (double)(p->out.len + p->out_dropped + p->errout.len + p->err_dropped),
            0, false);
        goto out;
    }
    lab_buf_add(&g->report_json, p->report.buf, p->report.len);
    if (p->report.len == 0) {
        if (p->exited && p->exit_code == 2)
            rc = lab_err_set(err, LAB_ECHILD, "driver '%s' refused its arguments: %s", ex->family,
                             p->errout.buf);
        else if ((rc = lab_runner_not_started(ex->family, p, err)) == 0) {
            lab_grade_set(&g->result, ex, LAB_VERDICT_RUNTIME_ERROR,
                          _("the run ended without a report: the driver %s"),
                          lab_proc_describe(p, how, sizeof(how)));
            g->result.advice = no_report_advice;
        }
        goto out;
    }
    if (cpu_started) { /* its row into the report, before anything reads it */
        cpu_started = false;
        if ((rc = lab_beside_finish_cpu(&cpup, g, err)) < 0)
            goto out;
    }
    if ((rc = lab_runreport_parse(g->report_json.buf, g->report_json.len, &g->report, err)) < 0 ||
        (rc = check_complete(&g->report, sizes, nsizes, err)) < 0) {
        lab_runreport_release(&g->report);
        goto out;
    }
    g->has_report = true;
    ev.baseline_name = g->baseline_name;
    ev.report = &g->report;
    if (model_started && all_correct(&g->report)) {
        lab_beside_finish_model(l, &modelp, fam, g, ex, req->model_gpu, model_sizes,
                                student->ptx.buf);
        model_started = false;
    }
    ev.model_asked = sim && ex->kind != LAB_KIND_HOST && ex->ntiming_sizes;
    ev.model = g->has_model ? &g->model : NULL;
    ev.model_skipped = g->model_skipped;
    ev.model_needs = g->model_needs;
    ev.sim_max_size = g->sim_max_size;
    if (sim_started) {
        sim_started = false;
        has_check = lab_beside_finish_check(&simp, g, &check);
        ev.sim_check = has_check ? &check : NULL;
    }
    ev.capped_at = sim && g->sizes_capped ? cap : 0;
    ev.capped_sides = cap != g->sim_max_size;
    if (lab_ptx_reads_any(student->ptx.buf, LAB_PTX_READS_GPU_IDS))
        ev.gpu_ids = lab_ptx_reads_names(LAB_PTX_READS_GPU_IDS);
    ev.tables = tables.buf;
    ev.from_tables = from_tables;
    ev.unchanged = unchanged;
    ev.unchanged_arg = &ask;
    rc = lab_judge(ex, &ev, &g->result, err);
out:
    if (has_check)
        lab_runreport_release(&check);
    if (sim_started)
        lab_proc_kill(&simp);
    if (model_started)
        lab_proc_kill(&modelp);
    if (cpu_started)
        lab_proc_kill(&cpup);
    lab_proc_release(&cpup);
    lab_proc_release(&modelp);
    lab_proc_release(&simp);
    lab_proc_release(&own);
    lab_buf_release(&tables);
    return rc;
}

/* The backend asked for (--sim, $CUDALAB_BACKEND), auto made cuda or sim by the device. */
static const char *
wanted_backend(const lab_grade_request *req, const lab_device *dev)
{
    const char *want = req->backend, *env = getenv("CUDALAB_BACKEND");

    if (!want && env && *env)
        want = env;
    if (!want || !strcmp(want, "auto"))
        want = dev->present ? "cuda" : "sim";
    return want;
}

/* cuda when asked or when a GPU is there, sim when asked or when none is (device-side
 * launches included: the simulator runs them); "" when nothing can run it (NO_GPU, *why
 * says why): cuda asked for and no GPU. */
static int
choose_backend(const lab_grade_request *req, const lab_device *dev, lab_grading *g,
               const char **why, char *why_buf, size_t why_size, lab_err *err)
{
    const char *want = wanted_backend(req, dev), *cap;

    if (strcmp(want, "cuda") && strcmp(want, "sim"))
        return lab_err_set(err, LAB_EINVAL, "unknown backend '%s' (cuda, sim or auto)", want);
    g->backend[0] = '\0';
    if (req->ex->kind == LAB_KIND_HOST) { /* host code runs on the CPU, GPU or not */
        snprintf(g->backend, sizeof(g->backend), "host");
        return 0;
    }
    *why = lab_device_reason(dev, why_buf, why_size);
    if (!strcmp(want, "cuda") && !dev->present)
        return 0;
    snprintf(g->backend, sizeof(g->backend), "%s", want);
    if (req->model_gpu && !strcmp(want, "cuda"))
        return lab_err_set(err, LAB_EINVAL,
                           _("--gpu %s names the GPU the model stands for on the simulator, and "
                             "this grading measures the %s: add --sim to model it"),
                           req->model_gpu, dev->name);
    if (!strcmp(want, "sim")) {
        g->sim_max_size = LAB_SIM_MAX_SIZE;
        if ((cap = getenv("CUDALAB_SIM_MAX_SIZE")) && *cap &&
            !lab_env_parse_count(cap, ULONG_MAX, &g->sim_max_size))
            return lab_err_set(err, LAB_EINVAL,
                               "CUDALAB_SIM_MAX_SIZE='%s' is not a positive number", cap);
    }
    return 0;
}

/* One grading; *gpu_gone when the probe's answer was a kept one (lab/grade/probecache.h) and
 * the driver then found no GPU: nothing is judged or recorded, lab_grade probes again. */
static int
grade_once(lab *l, const lab_grade_request *req, lab_grading *g, bool *gpu_gone, lab_err *err)
{
    const lab_exercise *ex = req->ex, *base_ex = NULL;
    const lab_device *dev;
    lab_build student, baseline, reference;
    lab_model_gpu gpu; /* --gpu's, only looked up: a GPU the model does not know fails early */
    lab_buf why = LAB_BUF_INIT, mangled = LAB_BUF_INIT, found = LAB_BUF_INIT;
    const lab_family *fam;
    const char *no_run = "", *want;
    char no_run_buf[512];
    lab_proc early; /* the GPU's driver, started while nvcc compiles */
    bool on_sim, early_started = false;
    int rc;

    lab_proc_init(&early);
    lab_build_init(&student);
    lab_build_init(&baseline);
    lab_build_init(&reference);
    g->seed =
        req->seed ? req->seed : ((uint64_t)time(NULL) << 20 ^ (uint64_t)getpid()) % 1000000007;
    if (!(fam = lab_family_find(ex->family))) {
        rc = lab_err_set(err, LAB_EINVAL, "%s: unknown family '%s'", ex->manifest, ex->family);
        goto out;
    }
    if (strcmp(ex->baseline, "cpu")) {
        if (!(base_ex = lab_catalog_find(lab_catalog_of(l), ex->baseline))) {
            const char *broken = lab_catalog_why_broken(lab_catalog_of(l), ex->baseline);
            rc = lab_err_set(err, LAB_ENOENT, "%s: baseline '%s' is %s%s", ex->manifest,
                             ex->baseline, broken ? "broken: " : "not an exercise",
                             broken ? broken : "");
            goto out;
        }
        snprintf(g->baseline_name, sizeof(g->baseline_name), "%s", base_ex->kernel);
    } else {
        snprintf(g->baseline_name, sizeof(g->baseline_name), "%s", fam->cpu_baseline);
    }
    if (req->model_gpu && (rc = lab_modelled_gpu(lab_datadir(l), req->model_gpu, &gpu, err)) < 0)
        goto out;
    if (access(req->file, R_OK) < 0) {
        rc = lab_err_set(err, LAB_ENOENT, "cannot read '%s': %s", req->file, strerror(errno));
        goto out;
    }
    if ((rc = lab_device_probe(l, &dev, err)) < 0)
        goto out;
    g->device = *dev;
    snprintf(g->arch, sizeof(g->arch), "%s", lab_target_arch(dev));
    /* the simulator reads PTX alone: no cubin is built before a grading there (the student's
     * is made while the simulator runs, for ptxas's checks: ptxas_beside) */
    want = wanted_backend(req, dev);
    on_sim = ex->kind != LAB_KIND_HOST && !strcmp(want, "sim");
    /* on a GPU, the driver opens the device and makes its context while nvcc runs (about
     * 0.2 s of the 0.3 s a compile takes); unsandboxed only (lab_runner_prestart) */
    if (dev->present && ex->kind != LAB_KIND_HOST && !strcmp(want, "cuda") && !lab_sandboxed(l)) {
        lab_err ignored = LAB_ERR_INIT; /* not started: the driver starts after the build */
        early_started = lab_runner_prestart(l, ex->family, ex->run_timeout_s, req->cancel, &early,
                                            &ignored) == 0;
    }

    stage(req, LAB_STAGE_COMPILE, req->file);
    rc = lab_compile_file_for(l, ex, req->file, g->arch, req->cancel, true, on_sim, &student, err);
    memcpy(g->file_hash, student.hash, sizeof(g->file_hash));
    lab_buf_add(&g->compiler_log, student.log.buf, student.log.len);
    if (rc < 0)
        goto out;
    if (!student.ok) {
        if (student.timed_out)
            lab_grade_set(&g->result, ex, LAB_VERDICT_COMPILE_ERROR,
                          _("nvcc did not finish within %.0f s"), ex->build_timeout_s);
        else
            lab_grade_set(&g->result, ex, LAB_VERDICT_COMPILE_ERROR, _("%s does not compile"),
                          req->file);
        goto judged;
    }

    if (ex->kind == LAB_KIND_HOST)
        goto built; /* no PTX: the driver looks the function up */
    stage(req, LAB_STAGE_CHECK, _("kernel and constraints"));
    if ((rc = lab_runner_entry(ex, &mangled, err)) < 0)
        goto out;
    if (!lab_ptx_has_entry(student.ptx.buf, mangled.buf)) {
        lab_ptx_list_entries(student.ptx.buf, &found);
        lab_grade_set(&g->result, ex, LAB_VERDICT_COMPILE_ERROR,
                      _("%s defines no kernel %s with this exercise's parameters; it defines: %s"),
                      req->file, ex->kernel, found.len ? found.buf : "no kernel");
        goto judged;
    }
    if (ex->choose_block && lab_compile_bad_choice(ex, student.ptx.buf, &why)) {
        lab_grade_set(&g->result, ex, LAB_VERDICT_CONSTRAINT, "%s %s", req->file, why.buf);
        goto judged;
    }
    if ((rc = lab_constraints_check(student.ptx.buf, ex->kernel, ex->constraints, ex->nconstraints,
                                    &why, err)) < 0)
        goto out;
    if (rc == 1) {
        rc = 0;
        lab_grade_set(&g->result, ex, LAB_VERDICT_CONSTRAINT, "%s", why.buf);
        goto judged;
    }
built:
    if ((rc = lab_compile_solution_for(l, ex, g->arch, req->cancel, on_sim, &reference, err)) < 0 ||
        (base_ex && (rc = lab_compile_solution_for(l, base_ex, g->arch, req->cancel, on_sim,
                                                   &baseline, err)) < 0))
        goto out;
    if ((rc = choose_backend(req, dev, g, &no_run, no_run_buf, sizeof(no_run_buf), err)) < 0)
        goto out;
    if (!g->backend[0]) {
        lab_grade_set(&g->result, ex, LAB_VERDICT_NO_GPU,
                      _("compiled for %s; no GPU to run it on: %s"), g->arch, no_run);
        goto judged;
    }

    stage(req, LAB_STAGE_RUN, strcmp(g->backend, "sim") ? dev->name : _("the PTX simulator"));
    if ((rc = run_and_judge(l, req, fam, g, &student, &baseline, &reference, base_ex,
                            early_started ? &early : NULL, err)) < 0)
        goto out;
    if (dev->from_cache && g->has_report && !strcmp(g->report.status, "no_gpu")) {
        *gpu_gone = true;
        goto out;
    }
judged:
    g->judged = true;
    if (req->record) {
        stage(req, LAB_STAGE_RECORD, _("progress"));
        rc = record(l, req, g, err);
    }
out:
    lab_proc_release(&early); /* a driver not used: stopped and reaped */
    lab_build_release(&student);
    lab_build_release(&baseline);
    lab_build_release(&reference);
    lab_buf_release(&why);
    lab_buf_release(&mangled);
    lab_buf_release(&found);
    return rc;
}

int
lab_grade(lab *l, const lab_grade_request *req, lab_grading *g, lab_err *err)
{
    bool gpu_gone = false;
    int rc = grade_once(l, req, g, &gpu_gone, err);

    if (rc == 0 && gpu_gone) { /* the kept answer is stale: probe again, and grade again */
        lab_trace_mark("device: the kept probe's GPU was not found: probing again");
        lab_device_forget(l);
        lab_grading_release(g);
        lab_grading_init(g);
        rc = grade_once(l, req, g, &gpu_gone, err);
    }
    return rc;
}
