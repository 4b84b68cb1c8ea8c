/*
 * cmd-batch.c - `cudalab batch EXERCISE SUBMISSION... [--jobs N] [--out DIR]
 * [--from LIST] [--format gradescope] [--force] [--no-sandbox]
 * [--slurm [--partition P] [--gres G] [--chunk K] [--dry-run] [--wait]]`:
 * grade a class (lab/batch/batch.h), here or on Slurm (lab/batch/slurm.h).
 * A progress bar with ETA on a terminal, one plain line per submission
 * otherwise.
 */
#include "lab/cli/cli.h"
#include "lab/batch/batch.h"
#include "lab/batch/slurm.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BAR_WIDTH 30
#define SLURM_WAIT_S (24 * 3600.0)

struct batch_args {
    lab_batch_opts o;
    lab_strvec subs;
    bool slurm, dry_run, wait, no_sandbox;
    const char *partition, *gres;
    long chunk;
};

static void
on_progress(const lab_batch_progress *p, void *arg)
{
    const lab_cli *cli = arg;
    char eta[32] = "?";

    if (p->eta_s >= 0)
        snprintf(eta, sizeof(eta), "%dm%02ds", (int)p->eta_s / 60, (int)p->eta_s % 60);
    if (cli->tty_err) {
        int fill = p->total ? (int)(BAR_WIDTH * p->done / p->total) : BAR_WIDTH;
        fprintf(stderr, "\r\033[K[%.*s%*s] %zu/%zu  %.1f/min  ETA %s  %s %s", fill,
                "##############################", BAR_WIDTH - fill, "", p->done, p->total,
                p->elapsed_s > 0 ? 60.0 * (double)(p->done - p->skipped) / p->elapsed_s : 0, eta,
                p->student, p->verdict);
        if (p->done == p->total)
            fputc('\n', stderr);
    } else {
        fprintf(stderr, "[%zu/%zu] %s %s (%.0f s, ETA %s)\n", p->done, p->total, p->student,
                p->verdict, p->elapsed_s, eta);
    }
}

static int
read_list(const char *path, lab_strvec *subs)
{
    lab_buf text = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    char *line, *save = NULL;

    if (lab_buf_read_file(&text, path, &err) < 0)
        return lab_cli_error("batch: --from: %s", err.msg);
    for (line = strtok_r(text.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
        if (*line)
            lab_strvec_push(subs, line);
    lab_buf_release(&text);
    return 0;
}

static bool
parse_long(const char *s, long min, long *out)
{
    char *end;

    errno = 0;
    *out = strtol(s, &end, 10);
    return !errno && *s && !*end && *out >= min;
}

/* argv -> a; returns -1 when parsed, else the exit status of a usage error */
static int
parse(int argc, char **argv, struct batch_args *a)
{
    long v;

    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

        if (!strcmp(arg, "--jobs") && val && parse_long(val, 1, &v) && v <= 1024)
            a->o.jobs = (int)v, i++;
        else if (!strcmp(arg, "--chunk") && val && parse_long(val, 1, &a->chunk))
            i++;
        else if (!strcmp(arg, "--out") && val)
            a->o.out = val, i++;
        else if (!strcmp(arg, "--from") && val) {
            if (read_list(val, &a->subs))
                return LAB_EXIT_ERROR;
            i++;
        } else if (!strcmp(arg, "--format") && val && !strcmp(val, "gradescope"))
            a->o.gradescope = true, i++;
        else if (!strcmp(arg, "--partition") && val)
            a->partition = val, i++;
        else if (!strcmp(arg, "--gres") && val)
            a->gres = val, i++;
        else if (!strcmp(arg, "--force"))
            a->o.force = true;
        else if (!strcmp(arg, "--no-sandbox"))
            a->no_sandbox = true;
        else if (!strcmp(arg, "--slurm"))
            a->slurm = true;
        else if (!strcmp(arg, "--dry-run"))
            a->dry_run = true;
        else if (!strcmp(arg, "--wait"))
            a->wait = true;
        else if (arg[0] == '-' && arg[1])
            return lab_cli_error("batch: bad option '%s'%s", arg,
                                 val ? "" : " (or its value is missing)");
        else if (!a->o.exercise)
            a->o.exercise = arg;
        else
            lab_strvec_push(&a->subs, arg);
    }
    if (!a->o.exercise || !a->subs.n)
        return lab_cli_error("usage: cudalab batch %s", lab_cmd_batch.args);
    return -1;
}

static char *
self_path(void)
{
    return realpath("/proc/self/exe", NULL);
}

static int
run_slurm(lab_cli *cli, struct batch_args *a, char *self)
{
    lab_slurm_opts so = { 0 };
    lab_slurm_job job;
    lab_err err = LAB_ERR_INIT;
    char *out = NULL;
    int status = LAB_EXIT_ERROR;

    (void)cli;
    if (lab_mkdir_p(a->o.out, 0755, &err) < 0 || !(out = realpath(a->o.out, NULL)))
        return lab_cli_error("batch: --out '%s': %s", a->o.out, err.msg[0] ? err.msg : "bad path");
    lab_slurm_job_init(&job);
    so.self = self;
    so.exercise = a->o.exercise;
    so.subs = (const char *const *)a->subs.v;
    so.nsubs = a->subs.n;
    so.out = out;
    so.chunk = (size_t)a->chunk;
    so.jobs = a->o.jobs;
    so.sandbox = a->o.sandbox;
    so.gradescope = a->o.gradescope;
    so.partition = a->partition;
    so.gres = a->gres;
    if (lab_slurm_prepare(&so, &job, &err) < 0) {
        lab_cli_error("batch: %s", err.msg);
        goto out;
    }
    if (a->dry_run) {
        lab_buf text = LAB_BUF_INIT;
        lab_buf_read_file(&text, job.array_script.buf, NULL);
        printf("# %s\n%s\n", job.array_script.buf, text.buf);
        lab_buf_reset(&text);
        lab_buf_read_file(&text, job.merge_script.buf, NULL);
        printf("# %s\n%s", job.merge_script.buf, text.buf);
        lab_buf_release(&text);
        status = LAB_EXIT_OK;
        goto out;
    }
    if (lab_slurm_submit(&job, a->wait, SLURM_WAIT_S, &err) < 0) {
        lab_cli_error("batch: %s", err.msg);
        goto out;
    }
    printf("submitted array job %s (%zu tasks) and merge job %s\n", job.array_id, job.tasks,
           job.merge_id);
    if (a->wait)
        printf("gradebook: %s/gradebook.csv\n", out);
    status = LAB_EXIT_OK;
out:
    lab_slurm_job_release(&job);
    free(out);
    return status;
}

static int
batch_run(lab_cli *cli, int argc, char **argv)
{
    struct batch_args a = { .o = { .out = "gradebook", .jobs = 0 }, .chunk = 25 };
    lab_batch_summary sum;
    lab_buf why = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    char *self = self_path();
    int status;

    if ((status = parse(argc, argv, &a)) >= 0)
        goto out;
    status = LAB_EXIT_ERROR;
    if (!a.o.jobs)
        a.o.jobs = (int)sysconf(_SC_NPROCESSORS_ONLN) > 0 ? (int)sysconf(_SC_NPROCESSORS_ONLN) : 1;
    if (!lab_cli_exercise(cli, a.o.exercise))
        goto out;
    if (!self) {
        lab_cli_error("batch: cannot find the cudalab program: %s", strerror(errno));
        goto out;
    }
    a.o.sandbox = !a.no_sandbox;
    if (a.o.sandbox && !a.dry_run && !lab_sandbox_probe(getenv("CUDALAB_BWRAP"), &why)) {
        lab_cli_error("batch: refusing to grade untrusted code without a sandbox: %s\n"
                      "(run it where bubblewrap works, or pass --no-sandbox to grade without one)",
                      why.buf);
        goto out;
    }
    a.o.subs = (const char *const *)a.subs.v;
    a.o.nsubs = a.subs.n;
    if (a.slurm) {
        status = run_slurm(cli, &a, self);
        goto out;
    }
    a.o.self = self;
    a.o.on_progress = on_progress;
    a.o.arg = cli;
    if (lab_batch_run(cli->lab, &a.o, &sum, &err) < 0) {
        status = lab_cli_error("batch: %s", err.msg);
        goto out;
    }
    printf("graded %zu, skipped %zu (already graded), %zu passed, %zu flagged in %.1f s%s\n",
           sum.graded, sum.skipped, sum.passed, sum.flagged, sum.elapsed_s,
           a.o.sandbox ? "" : " (no sandbox)");
    printf("gradebook: %s/gradebook.csv, %s/gradebook.json\n", a.o.out, a.o.out);
    status = LAB_EXIT_OK;
out:
    free(self);
    lab_buf_release(&why);
    lab_strvec_release(&a.subs);
    return status;
}

const lab_cmd lab_cmd_batch = {
    .name = "batch",
    .args = "EXERCISE SUBMISSION... [--jobs N] [--out DIR] [--from LIST] [--format gradescope] "
            "[--force] [--no-sandbox] [--slurm [--partition P] [--gres G] [--chunk K] [--dry-run] "
            "[--wait]]",
    .help = "grade many submissions (files or folders) into gradebook.csv and gradebook.json",
    .complete = { LAB_COMPLETE_EXERCISE, LAB_COMPLETE_FILE },
    .run = batch_run,
};
