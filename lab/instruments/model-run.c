/*
 * model-run.c - why a kernel is as fast as it is, without a GPU: the exercise's driver runs the
 * student's kernel, the baseline and the reference on the simulator at the performance model's
 * two sizes (lab_modelled_sizes), and the model turns the counts into the times an H100 would
 * take at the exercise's timing size, each with what bounds it (see inspect.h; the same run and
 * the same reading as a grading on the simulator, lab/grade/grade.c).
 */
#include "lab/catalog/family.h"
#include "lab/instruments/inspect.h"
#include "lab/instruments/profile.h"
#include "lab/platform/proc.h"
#include "lab/util/i18n.h"

#include <stdio.h>

#define MODEL_TIMEOUT_S 30.0 /* as a grading's model run */

/* Runs the driver of argv with the model's sizes; its report in proc->report, or why not. */
static bool
run(lab_inspection *in, const lab_strvec *argv, const unsigned long sizes[2], lab_proc *proc)
{
    lab_err err = LAB_ERR_INIT;
    char how[128];

    lab_strvec_pushv(&proc->argv, (const char *const *)argv->v);
    lab_strvec_pushf(&proc->argv, "--sizes=%lu,%lu", sizes[0], sizes[1]); /* the last counts */
    proc->report_fd = 3;
    proc->cancel = in->cancel;
    proc->timeout_s =
        in->ex->run_timeout_s < MODEL_TIMEOUT_S ? in->ex->run_timeout_s : MODEL_TIMEOUT_S;
    if (lab_proc_run(proc, &err) < 0) {
        snprintf(in->model_why, sizeof(in->model_why), "%.250s", err.msg);
        return false;
    }
    if (!proc->report.len) {
        snprintf(in->model_why, sizeof(in->model_why), _("the simulator's run %.200s"),
                 lab_proc_describe(proc, how, sizeof(how)));
        return false;
    }
    return true;
}

void
lab_inspect__model(lab *l, lab_inspection *in)
{
    const lab_exercise *ex = in->ex;
    const lab_family *fam = lab_family_find(ex->family);
    lab_strvec argv = LAB_STRVEC_INIT, kernels = LAB_STRVEC_INIT;
    lab_buf log = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    lab_model_gpu gpu;
    unsigned long sizes[2];
    lab_proc proc;
    bool compiled = false;

    lab_proc_init(&proc);
    if (!fam || !ex->ntiming_sizes)
        goto out; /* not timed: nothing to model, nothing to say */
    if (ex->choose_block) {
        snprintf(in->model_why, sizeof(in->model_why), "%s",
                 _("inspect does not sweep block shapes; cudalab grade models every shape"));
        goto out;
    }
    lab_modelled_sizes(fam, lab_modelled_largest(ex->sizes, ex->nsizes), sizes);
    if (lab_modelled_gpu(lab_datadir(l), in->model_gpu, &gpu, &err) < 0 ||
        lab_profile_driver_argv(l, ex, in->file, "sim", sizes[1], &argv, &kernels, &compiled, NULL,
                                &log, &err) < 0 ||
        !compiled) {
        snprintf(in->model_why, sizeof(in->model_why), "%.250s",
                 compiled || err.code ? err.msg : _("the file does not compile"));
        goto out;
    }
    if (!run(in, &argv, sizes, &proc))
        goto out;
    if (lab_modelled_from_report(proc.report.buf, proc.report.len, fam, &gpu, sizes[0], sizes[1],
                                 lab_modelled_largest(ex->timing_sizes, ex->ntiming_sizes),
                                 &in->model, &err) < 0) {
        snprintf(in->model_why, sizeof(in->model_why), "%.250s", err.msg);
        goto out;
    }
    in->has_model = true;
out:
    lab_proc_release(&proc);
    lab_strvec_release(&argv);
    lab_strvec_release(&kernels);
    lab_buf_release(&log);
}
