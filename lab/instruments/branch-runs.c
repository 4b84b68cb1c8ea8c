/*
 * branch-runs.c - what the listing can only call a branch where "the warp may diverge", the
 * simulator counts: the exercise's driver runs the student's kernel once on it (student only,
 * a small size, --branch-counts), and its report's "sim_branches" ({where, warps, divergent}
 * per PTX conditional branch) is summed per source line of the inspected file (see inspect.h).
 */
#include "lab/instruments/inspect.h"
#include "lab/util/i18n.h"
#include "lab/instruments/profile.h"
#include "lab/platform/proc.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RUNS_TIMEOUT_S 20.0 /* a kernel that hangs costs the inspection no more */

/* The size the kernel runs at: the smallest of the exercise's that fills a warp (a pattern of
 * divergence shows at once, and the simulator is quick), else its largest. */
static unsigned long
runs_size(const lab_exercise *ex)
{
    unsigned long size = 0;

    for (size_t i = 0; i < ex->nsizes; i++)
        if (ex->sizes[i] >= 32 && (!size || ex->sizes[i] < size))
            size = ex->sizes[i];
    return size ? size : ex->sizes[ex->nsizes - 1];
}

/* "dir/file.cu:37 (inlined at ...)" of the inspected file: 37, else 0. */
static int
own_line(const lab_inspection *in, const char *where)
{
    char file[256];
    const char *colon = strchr(where, ':');
    int line;

    if (!colon || colon - where >= (long)sizeof(file) || sscanf(colon + 1, "%d", &line) != 1)
        return 0;
    snprintf(file, sizeof(file), "%.*s", (int)(colon - where), where);
    return lab_inspect_is_own_file(in, file) ? line : 0;
}

static int
add_run(lab_inspection *in, int line, uint64_t runs, uint64_t divergent)
{
    lab_branch_run *r = (lab_branch_run *)lab_inspection_branch_run(in, line), *v;

    if (!r) {
        if (!(v = realloc(in->runs, (in->nruns + 1) * sizeof(*v))))
            return LAB_ENOMEM;
        in->runs = v;
        r = &in->runs[in->nruns++];
        *r = (lab_branch_run){ .line = line };
    }
    r->branches++;
    r->runs += runs;
    r->divergent += divergent;
    return 0;
}

static int
by_line(const void *a, const void *b)
{
    return ((const lab_branch_run *)a)->line - ((const lab_branch_run *)b)->line;
}

static void
read_report(lab_inspection *in, const lab_buf *report)
{
    cJSON *root = report->len ? cJSON_ParseWithLength(report->buf, report->len) : NULL;
    cJSON *branches = cJSON_GetObjectItemCaseSensitive(root, "sim_branches"), *b;
    const char *reason = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(root, "reason"));

    if (!cJSON_IsArray(branches)) {
        if (reason && *reason)
            snprintf(in->runs_why, sizeof(in->runs_why), _("the simulator did not run it: %.400s"),
                     reason);
        else
            snprintf(in->runs_why, sizeof(in->runs_why), "%s", _("the simulator did not run it"));
        goto out;
    }
    cJSON_ArrayForEach(b, branches)
    {
        const char *where = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(b, "where"));
        cJSON *warps = cJSON_GetObjectItemCaseSensitive(b, "warps");
        cJSON *divergent = cJSON_GetObjectItemCaseSensitive(b, "divergent");
        int line = where ? own_line(in, where) : 0;
        if (line > 0 && cJSON_IsNumber(warps) && cJSON_IsNumber(divergent) &&
            add_run(in, line, (uint64_t)warps->valuedouble, (uint64_t)divergent->valuedouble) < 0)
            goto out;
    }
    if (in->nruns)
        qsort(in->runs, in->nruns, sizeof(*in->runs), by_line);
    in->has_runs = true;
out:
    cJSON_Delete(root);
}

void
lab_inspect__branch_runs(lab *l, lab_inspection *in)
{
    lab_strvec argv = LAB_STRVEC_INIT, kernels = LAB_STRVEC_INIT;
    lab_buf log = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    lab_proc proc;
    bool compiled = false;

    in->runs_size = runs_size(in->ex);
    lab_proc_init(&proc);
    if (lab_profile_driver_argv(l, in->ex, in->file, "sim", in->runs_size, &argv, &kernels,
                                &compiled, NULL, &log, &err) < 0 ||
        !compiled) {
        snprintf(in->runs_why, sizeof(in->runs_why), "%s",
                 compiled || err.code ? err.msg : "the file does not compile");
        goto out;
    }
    lab_strvec_pushv(&proc.argv, (const char *const *)argv.v);
    lab_strvec_pushl(&proc.argv, "--student-only", "--branch-counts", NULL);
    proc.report_fd = 3;
    proc.cancel = in->cancel;
    proc.timeout_s =
        in->ex->run_timeout_s < RUNS_TIMEOUT_S ? in->ex->run_timeout_s : RUNS_TIMEOUT_S;
    if (lab_proc_run(&proc, &err) < 0) {
        snprintf(in->runs_why, sizeof(in->runs_why), "%s", err.msg);
        goto out;
    }
    if (!proc.report.len) {
        char how[128];
        snprintf(in->runs_why, sizeof(in->runs_why), _("the simulator's run %s"),
                 lab_proc_describe(&proc, how, sizeof(how)));
        goto out;
    }
    read_report(in, &proc.report);
out:
    lab_proc_release(&proc);
    lab_strvec_release(&argv);
    lab_strvec_release(&kernels);
    lab_buf_release(&log);
}

const lab_branch_run *
lab_inspection_branch_run(const lab_inspection *in, int line)
{
    for (size_t i = 0; i < in->nruns; i++)
        if (in->runs[i].line == line)
            return &in->runs[i];
    return NULL;
}
