/*
 * cmd-batch.c - `cudalab batch EXERCISE SUBMISSION... [--jobs N] [--out DIR]
 * [--from LIST] [--gpus LIST] [--format gradescope] [--force] [--keep-work] [--no-sandbox]
 * [--slurm [--partition P] [--gres G] [--chunk K] [--dry-run] [--wait]]`:
 * grade a class (lab/batch/batch.h) over every GPU of this node, or on Slurm
 * (lab/batch/slurm.h).  A live line on a terminal (done/total, rate, ETA, what
 * each GPU timed), one plain line per submission otherwise; at the end the
 * gradebook's summary: the count of every verdict, the flagged, each GPU's share.
 */
#include "lab/cli/cli.h"
#include "lab/batch/batch.h"
#include "lab/batch/slurm.h"
#include "lab/util/utf8.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LIST_CAP (1024 * 1024) /* bytes of a --from list */

#define BAR_WIDTH 30
#define SLURM_WAIT_S (24 * 3600.0)

struct batch_args {
    lab_batch_opts o;
    lab_strvec subs;
    bool slurm, dry_run, wait;
    const char *partition, *gres;
    size_t chunk;
};

/* "GPU0 61 GPU1 59": what each GPU timed so far, those with a grader at work on them marked "*" */
static void
gpu_shares(const lab_batch_progress *p, char *buf, size_t size)
{
    size_t at = 0;

    buf[0] = '\0';
    for (size_t i = 0; p->gpus && i < p->gpus->n && at < size; i++) {
        int n = snprintf(buf + at, size - at, "%sGPU%d%s %zu", i ? " " : "", p->gpus->gpu[i].index,
                         p->working[i] ? "*" : "", p->timed[i]);
        if (n < 0)
            break;
        at += (size_t)n;
    }
}

static void
on_progress(const lab_batch_progress *p, void *arg)
{
    const lab_cli *cli = arg;
    lab_buf student = LAB_BUF_INIT;
    char eta[32] = "?", gpus[160];
    double rate = p->elapsed_s > 0 ? 60.0 * (double)p->graded / p->elapsed_s : 0;

    if (p->eta_s >= 0)
        snprintf(eta, sizeof(eta), "%dm%02ds", (int)p->eta_s / 60, (int)p->eta_s % 60);
    gpu_shares(p, gpus, sizeof(gpus));
    /* the student's name is the file's, any bytes: shown, never sent to the terminal (a name
     * holding "\e[2J...all PASS" would clear the screen and print a verdict of its own) */
    lab_utf8_shown(&student, p->student, strlen(p->student), 0);
    if (cli->tty_err) {
        int fill = p->total ? (int)(BAR_WIDTH * p->done / p->total) : BAR_WIDTH;
        fprintf(stderr, "\r\033[K[%.*s%*s] ", fill, "##############################",
                BAR_WIDTH - fill, "");
        fprintf(stderr, _("%zu/%zu  %.1f/min  ETA %s  %s  %s %s"), p->done, p->total, rate, eta,
                gpus, student.buf, p->verdict);
        if (p->done == p->total)
            fputc('\n', stderr);
    } else if (p->timed_on) {
        fprintf(stderr, _("[%zu/%zu] %s %s on GPU %d (%.0f s, %.1f/min, ETA %s)\n"), p->done,
                p->total, student.buf, p->verdict, p->timed_on->index, p->elapsed_s, rate, eta);
    } else {
        fprintf(stderr, _("[%zu/%zu] %s %s (%.0f s, %.1f/min, ETA %s)\n"), p->done, p->total,
                student.buf, p->verdict, p->elapsed_s, rate, eta);
    }
    lab_buf_release(&student);
}

/* The gradebook's summary below the counts: every verdict's count, and each GPU's share. */
static void
print_summary(const lab_batch_summary *sum)
{
    printf(_("verdicts:"));
    for (size_t i = 0; i < sum->nverdicts; i++)
        printf("%s %s %zu", i ? "," : "", sum->verdicts[i].verdict, sum->verdicts[i].n);
    printf("\n");
    if (!sum->gpus.n)
        printf(_("no GPU (%s): graded on the simulator\n"), sum->gpus.why_none);
    for (size_t i = 0; i < sum->gpus.n; i++) {
        const lab_batch_gpu *g = &sum->gpus.gpu[i];

        if (*g->uuid)
            printf(_("GPU %d %s (%s): %zu timed\n"), g->index, g->name, g->uuid, sum->timed[i]);
        else
            printf(_("GPU %d %s: %zu timed\n"), g->index, g->name, sum->timed[i]);
    }
}

/* A --from list: one path a line, or, when the file holds a NUL, one path before each NUL (as
 * `find -print0` writes, and the lab's Slurm tasks get: a path may hold a newline, never a
 * NUL).  Empty entries are skipped. */
static int
read_list(const char *path, lab_strvec *subs)
{
    lab_buf text = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    char sep;

    if (lab_buf_read_regular(&text, path, LIST_CAP, &err) < 0)
        return lab_cli_error("batch: --from: %s", err.msg);
    sep = memchr(text.buf, '\0', text.len) ? '\0' : '\n';
    for (size_t at = 0, len; at < text.len; at += len + 1) {
        const char *end = memchr(text.buf + at, sep, text.len - at);
        len = end ? (size_t)(end - (text.buf + at)) : text.len - at;
        if (len)
            lab_strvec_pushf(subs, "%.*s", (int)len, text.buf + at);
    }
    lab_buf_release(&text);
    return 0;
}

/* args -> a; the submissions in the order given, --from lists in their place.  Returns -1,
 * else the exit status of an error. */
static int
read_args(const lab_cli_args *args, struct batch_args *a)
{
    const lab_cli_param *from = lab_cli_find_opt(args->cmd, "from");
    const lab_cli_param *submission = lab_cli_arg_at(args->cmd, 1);

    a->o.exercise = lab_cli_args_pos(args, 0);
    a->o.jobs = (int)lab_cli_args_number(args, "jobs", 0);
    if (!(a->o.out = lab_cli_args_value(args, "out")))
        a->o.out = "gradebook";
    a->o.gradescope = lab_cli_args_has(args, "format");
    a->o.force = lab_cli_args_has(args, "force");
    a->o.keep_work = lab_cli_args_has(args, "keep-work");
    a->o.sandbox = !lab_cli_args_has(args, "no-sandbox");
    a->o.gpus = lab_cli_args_value(args, "gpus");
    a->slurm = lab_cli_args_has(args, "slurm");
    a->dry_run = lab_cli_args_has(args, "dry-run");
    a->wait = lab_cli_args_has(args, "wait");
    a->partition = lab_cli_args_value(args, "partition");
    a->gres = lab_cli_args_value(args, "gres");
    a->chunk = (size_t)lab_cli_args_number(args, "chunk", 25);
    for (size_t i = 0; i < args->n; i++) {
        if (args->v[i].opt == from && read_list(args->v[i].value, &a->subs))
            return LAB_EXIT_ERROR;
        if (!args->v[i].opt && args->v[i].arg == submission)
            lab_strvec_push(&a->subs, args->v[i].value);
    }
    if (!a->subs.n)
        return lab_cli_usage_error(args->cmd, "no SUBMISSION given, nor a --from list");
    if (a->o.gpus && a->slurm)
        return lab_cli_usage_error(args->cmd,
                                   _("--gpus chooses this node's GPUs; with --slurm each task "
                                     "uses the GPUs Slurm gives it: ask with --gres gpu:N"));
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
    so.chunk = a->chunk;
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

/* The signal that asked a local batch to stop (SIGINT, SIGTERM, SIGHUP), or 0: the batch stops
 * its graders, removes the private copies of the submissions and writes the gradebook of what
 * was graded, then dies of that signal.  A second one dies at once. */
static volatile sig_atomic_t stop_signal;
static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };

static void
on_stop_signal(int sig)
{
    if (stop_signal) {
        signal(sig, SIG_DFL);
        raise(sig);
    }
    stop_signal = sig;
}

/* Installs on_stop_signal where a signal is not ignored, keeping the old actions in old. */
static void
catch_stop_signals(struct sigaction old[ARRAY_SIZE(stop_signals)])
{
    struct sigaction sa = { .sa_handler = on_stop_signal };

    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < ARRAY_SIZE(stop_signals); i++) {
        sigaction(stop_signals[i], NULL, &old[i]);
        if (old[i].sa_handler != SIG_IGN) /* nohup, a background job: stays ignored */
            sigaction(stop_signals[i], &sa, NULL);
    }
}

/* The old actions back; a signal that stopped the batch is raised again with them (the lab's
 * cleanup handler, then the default action: exit status 128 + the signal). */
static void
release_stop_signals(const struct sigaction old[ARRAY_SIZE(stop_signals)])
{
    int sig = stop_signal;

    for (size_t i = 0; i < ARRAY_SIZE(stop_signals); i++)
        sigaction(stop_signals[i], &old[i], NULL);
    if (sig)
        raise(sig);
}

static int
batch_run(lab_cli *cli, const lab_cli_args *args)
{
    struct sigaction old[ARRAY_SIZE(stop_signals)];
    struct batch_args a = { .subs = LAB_STRVEC_INIT };
    lab_batch_summary sum;
    lab_buf why = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    char *self = self_path();
    int status, rc;

    if ((status = read_args(args, &a)) >= 0)
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
    a.o.cancel = cli->cancel ? cli->cancel : &stop_signal; /* the shell's Ctrl-C, or ours */
    if (!cli->cancel)
        catch_stop_signals(old);
    rc = lab_batch_run(cli->lab, &a.o, &sum, &err);
    if (rc < 0)
        status = lab_cli_error("batch: %s%s", err.msg,
                               rc == LAB_ECANCEL ? "; the gradebook holds what was graded" : "");
    if (!cli->cancel)
        release_stop_signals(old);
    if (rc < 0)
        goto out;
    printf("graded %zu, skipped %zu (already graded), %zu passed, %zu flagged in %.1f s%s\n",
           sum.graded, sum.skipped, sum.passed, sum.flagged, sum.elapsed_s,
           a.o.sandbox ? "" : " (no sandbox)");
    print_summary(&sum);
    printf("gradebook: %s/gradebook.csv, %s/gradebook.json\n", a.o.out, a.o.out);
    if (a.o.keep_work)
        printf("the graded copies of the submissions are kept in %s/.work\n", a.o.out);
    status = LAB_EXIT_OK;
out:
    free(self);
    lab_buf_release(&why);
    lab_strvec_release(&a.subs);
    return status;
}

static const char *const formats[] = { "gradescope", NULL };

static const lab_cli_param args[] = {
    LAB_CLI_ARG("EXERCISE", LAB_CLI_EXERCISE, LAB_CLI_REQUIRED, "what every one is graded against"),
    LAB_CLI_ARG("SUBMISSION", LAB_CLI_FILE, LAB_CLI_ANY, "a student's .cu file, or a folder"),
    LAB_CLI_END,
};
static const lab_cli_param opts[] = {
    LAB_CLI_OPT_NUMBER("jobs", "N", 1, 1024, "grade N at once (default: one per CPU core)"),
    LAB_CLI_OPT_VALUE("out", LAB_CLI_DIR, "DIR",
                      "for the results and gradebook (default gradebook)"),
    LAB_CLI_OPT_OCCURS("from", LAB_CLI_FILE, "LIST", LAB_CLI_ANY,
                       "also the submissions named in file LIST, one a line (or each ended by a "
                       "NUL, as find -print0 writes)"),
    LAB_CLI_OPT_CHOICE("format", NULL, formats, "also gradescope/<id>/results.json"),
    LAB_CLI_OPT_VALUE("gpus", LAB_CLI_STRING, "LIST",
                      "the GPUs to grade on, e.g. 0,1 or UUIDs (default: every GPU the drivers "
                      "see, CUDA_VISIBLE_DEVICES's)"),
    LAB_CLI_OPT("force", "grade again what was graded already"),
    LAB_CLI_OPT("keep-work", "keep OUT/.work, the copies of the submissions that were graded"),
    LAB_CLI_OPT("no-sandbox", "grade without bubblewrap's sandbox (trusted code only)"),
    LAB_CLI_OPT("slurm", "grade on a Slurm cluster: an array job, then a merge job"),
    LAB_CLI_OPT_VALUE("partition", LAB_CLI_STRING, "P", "with --slurm: the partition"),
    LAB_CLI_OPT_VALUE("gres", LAB_CLI_STRING, "G",
                      "with --slurm: each task's resources, e.g. gpu:2 (a task uses all its GPUs)"),
    LAB_CLI_OPT_NUMBER("chunk", "K", 1, 0, "with --slurm: submissions per task (default 25)"),
    LAB_CLI_OPT("dry-run", "with --slurm: print the job scripts, submit nothing"),
    LAB_CLI_OPT("wait", "with --slurm: wait until the merge job is done"),
    LAB_CLI_END,
};

const lab_cmd lab_cmd_batch = {
    .name = "batch",
    .help = N_("grade many submissions (files or folders) into gradebook.csv and gradebook.json"),
    .args = args,
    .opts = opts,
    .group = LAB_CLI_TEACH,
    .machine_output = true,
    .run = batch_run,
};
