/*
 * beside.c - the simulator's runs beside a grading (see beside.h).
 */
#include "lab/grade/beside.h"
#include "lab/build/ptx.h"
#include "lab/grade/compile.h"
#include "lab/grade/gradeargs.h"
#include "lab/grade/modelcache.h"
#include "lab/grade/runner.h"
#include "lab/grade/runreport.h"
#include "lab/util/i18n.h"
#include "lab/util/trace.h"

#include <stdio.h>
#include <string.h>

/* The CPU baseline could not be timed (why): the lab's failure, which costs the learner nothing
 * (a lab error is not recorded as an attempt), said in their words. */
static int
cpu_failed(lab_err *err, int code, const char *why)
{
    return lab_err_set(err, code,
                       _("the lab could not time the CPU baseline (%s): the failure is the lab's, "
                         "not your kernel's, and nothing was recorded; grade it again, and if it "
                         "fails again run `cudalab doctor` and report it with this message"),
                       why);
}

/* How long the simulator's run beside a GPU grading may take: a kernel the GPU runs in
 * microseconds can take the simulator minutes, and then the check is skipped, saying so, rather
 * than holding the verdict up. */
#define SIM_CHECK_TIMEOUT_S 30.0

/* Starts a run of the simulator beside the grading's own driver, with its arguments for these
 * sizes (the student's alone with student_only; its checks off with counts_only), for cap_s
 * seconds at most (the exercise's run timeout if shorter): true, or false and why in skipped. */
static bool
start_beside(lab *l, const lab_exercise *ex, const lab_exercise *base_ex, lab_grading *g,
             lab_build *student, lab_build *baseline, lab_build *reference,
             const unsigned long *sizes, size_t nsizes, bool student_only, bool counts_only,
             double cap_s, const volatile sig_atomic_t *cancel, lab_proc *p, char *skipped,
             size_t skipped_size)
{
    lab_strvec all = LAB_STRVEC_INIT, args = LAB_STRVEC_INIT;
    lab_err err = LAB_ERR_INIT;
    bool started;

    lab_grading_driver_args(l, ex, base_ex, g, "sim", student, baseline, reference, sizes, nsizes,
                            &all);
    /* a choice exercise's sweep for the model: without --choose-block, the driver runs the
     * student's kernel at every shape of --block, each case and its counts naming the shape */
    for (size_t i = 0; i < all.n; i++)
        if (counts_only && !strncmp(all.v[i], "--seed=", 7))
            lab_strvec_pushf(&args, "--seed=%d", LAB_MODELCACHE_SEED); /* see modelcache.h */
        else if (!(ex->choose_block && !student_only && !strcmp(all.v[i], "--choose-block")))
            lab_strvec_push(&args, all.v[i]);
    lab_strvec_release(&all);
    /* the model's run of all three roles: the baseline's and reference's counts kept by an
     * earlier grading make it the student's alone */
    if (counts_only && !student_only && !ex->choose_block) {
        lab_modelcache_key(lab_libexecdir(l), lab_builddir(l), ex->family, &args, g->model_key);
        if (lab_modelcache_load(lab_cachedir(l), g->model_key, &g->model_kept)) {
            lab_trace_mark("the model's run: the baseline's and reference's counts kept");
            student_only = true;
        }
    }
    if (student_only || ex->choose_block)
        lab_strvec_push(&args, "--student-only");
    if (counts_only)
        lab_strvec_push(&args, "--counts-only");
    started = lab_runner_start(l, ex->family, &args,
                               ex->run_timeout_s < cap_s ? ex->run_timeout_s : cap_s, cancel, true,
                               p, &err) == 0;
    if (!started)
        snprintf(skipped, skipped_size, "%.250s", err.msg);
    lab_strvec_release(&args);
    return started;
}

/* Waits for a run beside the grading (WHAT in the trace): true when it ended with a report,
 * else false and why in skipped, after WHO ("the simulator"). */
static bool
finish_beside(lab_proc *p, const char *what, const char *who, char *skipped, size_t skipped_size)
{
    lab_err err = LAB_ERR_INIT;
    char how[128];
    int rc = lab_runner_finish(p, what, &err);

    lab_trace_mark("%s: done", what);
    if (rc == 0 && !p->timed_out && !p->cancelled && p->report.len)
        return true;
    snprintf(skipped, skipped_size, "%s %.230s", who,
             err.code ? err.msg : lab_proc_describe(p, how, sizeof(how)));
    return false;
}

/* Starts the simulator's run of the student's kernel beside a GPU grading (student only, the
 * simulator's caps): 0 and *started, or the reason it did not start in g->sim_skipped. */
void
lab_beside_start_check(lab *l, const lab_grade_request *req, const lab_family *fam, lab_grading *g,
                       lab_build *student, lab_build *baseline, lab_build *reference,
                       const lab_exercise *base_ex, lab_proc *p, bool *started)
{
    const lab_exercise *ex = req->ex;
    unsigned long sizes[16];
    size_t nsizes;

    *started = false;
    if (ex->kind == LAB_KIND_HOST || strcmp(g->backend, "cuda"))
        return;
    if (req->no_sim_check || !ex->sim_check) {
        snprintf(g->sim_skipped, sizeof(g->sim_skipped), "%s",
                 req->no_sim_check ? _("turned off for this grading")
                                   : _("turned off for this exercise"));
        return;
    }
    lab_grading_sizes(ex, lab_family_sim_limit(fam, LAB_SIM_MAX_SIZE), sizes, ARRAY_SIZE(sizes),
                      &nsizes);
    *started =
        start_beside(l, ex, base_ex, g, student, baseline, reference, sizes, nsizes, true, false,
                     SIM_CHECK_TIMEOUT_S, req->cancel, p, g->sim_skipped, sizeof(g->sim_skipped));
}

bool
lab_beside_finish_check(lab_proc *p, lab_grading *g, lab_runreport *out)
{
    lab_err err = LAB_ERR_INIT;

    if (!finish_beside(p, "the simulator's check", "the simulator", g->sim_skipped,
                       sizeof(g->sim_skipped)))
        return false;
    if (lab_runreport_parse(p->report.buf, p->report.len, out, &err) < 0 ||
        strcmp(out->status, "ok")) {
        char why[512];
        snprintf(g->sim_skipped, sizeof(g->sim_skipped), _("the simulator cannot run it: %.200s"),
                 err.code ? err.msg : lab_runreport_reason(out, why, sizeof(why)));
        lab_runreport_release(out);
        return false;
    }
    g->sim_checked = true;
    return true;
}

/* How long the simulator's run for the performance model may take: it runs the three roles
 * at two sizes, beside the student's run of every size. */
#define MODEL_RUN_TIMEOUT_S 30.0

/* On the simulator, a speed exercise's second run: student, baseline and reference at two
 * sizes, whose counts the performance model turns into times
 * (lab/grade/modelled.h).  *started, or why not in g->model_skipped; g->model_needs when the
 * simulator's cap kept the run below the sizes the model counts at: counts of smaller runs,
 * scaled up, would mislead (neighbored-less's reference at a cap of 1000 was 5.96x, where the
 * H100 measures 1.82x), so then there is no run and no speed verdict.  The run looks for no
 * races or hazards (--counts-only: the same counts in less time); the student's own run
 * beside it, at every graded size, does. */
void
lab_beside_start_model(lab *l, const lab_exercise *ex, const lab_family *fam, lab_grading *g,
                       lab_build *student, lab_build *baseline, lab_build *reference,
                       const lab_exercise *base_ex, const unsigned long *graded, size_t ngraded,
                       unsigned long sizes[2], lab_proc *p, bool *started)
{
    unsigned long uncapped[16], needed[2];
    size_t nuncapped;

    *started = false;
    if (strcmp(g->backend, "sim") || ex->kind == LAB_KIND_HOST || !ex->ntiming_sizes)
        return;
    lab_grading_sizes(ex, 0, uncapped, ARRAY_SIZE(uncapped), &nuncapped);
    lab_modelled_sizes(fam, lab_modelled_largest(graded, ngraded), sizes);
    lab_modelled_sizes(fam, lab_modelled_largest(uncapped, nuncapped), needed);
    if (sizes[1] < needed[1]) {
        g->model_needs = needed[1];
        return;
    }
    /* a choice exercise: the student's kernel at every shape, at one size (see
     * lab_modelled_sweep_size); a grid-stride loop's part per element comes from the graded
     * run, which must then reach the simulator's full size */
    if (ex->choose_block) {
        if (fam->size == LAB_FAMILY_SIZE_ELEMENTS &&
            lab_modelled_largest(graded, ngraded) < lab_family_sim_limit(fam, LAB_SIM_MAX_SIZE)) {
            g->model_needs = lab_family_sim_limit(fam, LAB_SIM_MAX_SIZE);
            return;
        }
        sizes[0] = sizes[1] =
            lab_modelled_sweep_size(fam, lab_modelled_largest(ex->timing_sizes, ex->ntiming_sizes));
    }
    *started = start_beside(l, ex, base_ex, g, student, baseline, reference, sizes,
                            sizes[0] < sizes[1] ? 2 : 1, false, true, MODEL_RUN_TIMEOUT_S, NULL, p,
                            g->model_skipped, sizeof(g->model_skipped));
}

/* The model run's counts made times (g->model), for the judge; or why there are none
 * (g->model_skipped). */
void
lab_beside_finish_model(lab *l, lab_proc *p, const lab_family *fam, lab_grading *g,
                        const lab_exercise *ex, const char *gpu_name, const unsigned long sizes[2],
                        const char *ptx)
{
    lab_block_shape shape;
    char choice[48] = "";
    lab_model_gpu gpu;
    lab_err err = LAB_ERR_INIT;

    if (ex->choose_block) { /* checked by lab_compile_bad_choice already */
        lab_compile_chosen_block(ptx, &shape);
        lab_block_shape_format(&shape, choice, sizeof(choice));
    }

    if (!finish_beside(p, "the model's run", "the simulator", g->model_skipped,
                       sizeof(g->model_skipped)))
        return;
    if (g->model_kept.len &&
        lab_modelcache_merge(&p->report, g->model_kept.buf, g->model_kept.len, &err) < 0) {
        snprintf(g->model_skipped, sizeof(g->model_skipped), "%.250s", err.msg);
        return;
    }
    if (lab_modelled_gpu(lab_datadir(l), gpu_name, &gpu, &err) < 0 ||
        (ex->choose_block
             ? lab_modelled_sweep_from_report(
                   p->report.buf, p->report.len, g->report_json.buf, g->report_json.len, fam, &gpu,
                   sizes[1], lab_modelled_largest(ex->timing_sizes, ex->ntiming_sizes),
                   lab_ptx_static_shared(ptx), choice, &g->model, &err)
             : lab_modelled_from_report(p->report.buf, p->report.len, fam, &gpu, sizes[0], sizes[1],
                                        lab_modelled_largest(ex->timing_sizes, ex->ntiming_sizes),
                                        &g->model, &err)) < 0) {
        snprintf(g->model_skipped, sizeof(g->model_skipped), "%.250s", err.msg);
        return;
    }
    g->has_model = true;
    if (!g->model_kept.len && g->model_key[0])
        lab_modelcache_store(lab_cachedir(l), g->model_key, p->report.buf, p->report.len);
}

/* Starts `cudalab-driver FAMILY --cpu-baseline-only` at the exercise's timing sizes, on a GPU
 * grading whose baseline is the CPU's: it runs the lab's code alone (no student module, so no
 * sandbox, as the device probe), beside the GPU's driver, which then leaves the CPU to it.  Not
 * on the simulator (nothing is timed there), nor for a choice exercise (its sweep has no
 * baseline).  Where it cannot start, the GPU's driver times the CPU itself, as it always did. */
void
lab_beside_start_cpu(lab *l, const lab_grade_request *req, const lab_grading *g,
                     const lab_exercise *base_ex, lab_strvec *gpu_args, lab_proc *p, bool *started)
{
    const lab_exercise *ex = req->ex;
    lab_strvec args = LAB_STRVEC_INIT;
    lab_err err = LAB_ERR_INIT;

    *started = false;
    if (strcmp(g->backend, "cuda") || ex->kind == LAB_KIND_HOST || base_ex || !ex->ntiming_sizes ||
        ex->choose_block)
        return;
    lab_strvec_push(&args, "--cpu-baseline-only");
    lab_runner_sizes_arg(&args, "timing-sizes", ex->timing_sizes, ex->ntiming_sizes);
    lab_strvec_pushf(&args, "--seed=%llu", (unsigned long long)g->seed);
    *started =
        lab_runner_start(l, ex->family, &args, ex->run_timeout_s, req->cancel, false, p, &err) == 0;
    if (*started)
        lab_strvec_push(gpu_args, "--no-cpu-baseline");
    else
        lab_trace_mark("the CPU baseline's run: not started (%s): the GPU's driver times it",
                       err.msg);
    lab_strvec_release(&args);
}

int
lab_beside_finish_cpu(lab_proc *p, lab_grading *g, lab_err *err)
{
    lab_buf merged = LAB_BUF_INIT;
    char why[256];
    int rc;

    if (!lab_runreport_lacks_baseline(g->report_json.buf, g->report_json.len)) {
        lab_proc_kill(p); /* nothing was timed on the GPU: its time would grade nothing */
        lab_trace_mark("the CPU baseline's run: stopped, nothing to add it to");
        return 0;
    }
    if (!finish_beside(p, "the CPU baseline's run", "its driver", why, sizeof(why)))
        return cpu_failed(err, LAB_ECHILD, why);
    if ((rc = lab_runreport_add_cpu_baseline(g->report_json.buf, g->report_json.len, p->report.buf,
                                             p->report.len, &merged, err)) < 0) {
        snprintf(why, sizeof(why), "%.250s", err->msg);
        rc = cpu_failed(err, rc, why);
    } else { /* the merged report takes the GPU run's place; merged frees the old one */
        lab_buf old = g->report_json;
        g->report_json = merged;
        merged = old;
    }
    lab_buf_release(&merged);
    return rc;
}
