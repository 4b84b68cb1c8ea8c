/*
 * job.c - a grading that runs while the menu stays responsive.
 *
 * Design: lab_grade runs in one worker thread; the UI thread never blocks on
 * it.  The worker reports through a pipe: on_stage writes a fixed-size
 * message per stage (writes under PIPE_BUF are atomic), and one "done"
 * message at the end.  The UI polls the pipe's read end beside the keyboard
 * (menu.c's loop), shows "compiling ...", "running on ..." with the elapsed
 * time, and on "done" joins the thread and shows the result.
 *
 * Cancel: the UI sets the request's sig_atomic_t flag; lab/core/proc.c
 * looks at it every 50 ms while it waits for nvcc or the driver, kills the
 * child's whole process group (SIGTERM, grace, SIGKILL) and reaps it, and
 * lab_grade returns LAB_ECANCEL, so no child is left behind.  Quitting the
 * menu during a grading cancels and joins the same way.
 *
 * Sharing: while the worker runs, only it uses the lab (toolchain, store
 * connection, device); the UI reads progress through its own store
 * connection (SQLite WAL).  The worker blocks every signal, so SIGWINCH and
 * the others reach the UI thread; children reset their mask (proc.c).
 */
#include "lab/menu/menu.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/core/clock.h"

typedef struct job_msg {
    int done; /* 0: a stage; 1: lab_grade returned */
    int stage;
    char what[120];
} job_msg;

struct lab_menu_job {
    pthread_t thread;
    int fd[2];
    volatile sig_atomic_t cancel;
    lab *lab;
    const lab_exercise *ex;
    char file[4096];
    lab_grade_request req;
    lab_grading g;
    lab_err err;
    int rc;
    double t0;
    char stage[160];
};

static void
job_on_stage(lab_stage stage, const char *what, void *arg)
{
    struct lab_menu_job *j = arg;
    job_msg msg = { 0, (int)stage, "" };

    snprintf(msg.what, sizeof(msg.what), "%s", what);
    if (write(j->fd[1], &msg, sizeof(msg)) < 0)
        return; /* the UI shows the last stage it got */
}

static void *
job_main(void *arg)
{
    struct lab_menu_job *j = arg;
    job_msg msg = { 1, 0, "" };

    j->rc = lab_grade(j->lab, &j->req, &j->g, &j->err);
    if (write(j->fd[1], &msg, sizeof(msg)) < 0)
        j->rc = j->rc ? j->rc : LAB_EIO;
    return NULL;
}

static void
job_free(struct lab_menu_job *j)
{
    if (j->fd[0] >= 0)
        close(j->fd[0]);
    if (j->fd[1] >= 0)
        close(j->fd[1]);
    lab_grading_release(&j->g);
    free(j);
}

int
lab_menu_job_start(lab_menu *m, const lab_exercise *ex, const char *file)
{
    struct lab_menu_job *j;
    sigset_t all, old;
    int rc;

    if (m->job)
        return LAB_EINVAL;
    if (!(j = calloc(1, sizeof(*j))))
        return LAB_ENOMEM;
    j->fd[0] = j->fd[1] = -1;
    lab_grading_init(&j->g);
    j->err = (lab_err)LAB_ERR_INIT;
    if (pipe2(j->fd, O_CLOEXEC) < 0) {
        lab_menu_status(m, "cannot grade: pipe: %s", strerror(errno));
        job_free(j);
        return LAB_EIO;
    }
    j->lab = m->lab;
    j->ex = ex;
    snprintf(j->file, sizeof(j->file), "%s", file);
    j->req.ex = ex;
    j->req.file = j->file;
    j->req.record = true;
    j->req.on_stage = job_on_stage;
    j->req.arg = j;
    j->req.cancel = &j->cancel;
    j->t0 = lab_clock_now();
    snprintf(j->stage, sizeof(j->stage), "starting");
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    rc = pthread_create(&j->thread, NULL, job_main, j);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc) {
        lab_menu_status(m, "cannot grade: no thread: %s", strerror(rc));
        job_free(j);
        return LAB_ENOMEM;
    }
    m->job = j;
    snprintf(m->progress, sizeof(m->progress), "grading %s: starting   (c: cancel)", ex->id);
    return 0;
}

int
lab_menu_job_fd(const lab_menu *m)
{
    return m->job ? m->job->fd[0] : -1;
}

void
lab_menu_job_cancel(lab_menu *m)
{
    if (!m->job)
        return;
    m->job->cancel = 1;
    snprintf(m->job->stage, sizeof(m->job->stage), "cancelling");
}

/* The result as `cudalab grade` prints it (no colour: the menu styles lines). */
static char *
result_text(lab_menu *m, struct lab_menu_job *j)
{
    lab_cli plain = *m->cli;
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);

    if (!fp)
        return NULL;
    plain.color = false;
    if (j->rc < 0)
        fprintf(fp, "%s: %s\n", j->rc == LAB_ECANCEL ? "cancelled" : "the lab could not grade",
                j->err.msg);
    else
        lab_cli_print_grading(fp, &plain, j->ex, j->file, &j->g);
    fclose(fp);
    return text;
}

static void
job_done(lab_menu *m)
{
    struct lab_menu_job *j = m->job;
    char *text;

    pthread_join(j->thread, NULL);
    m->job = NULL;
    m->progress[0] = '\0';
    text = result_text(m, j);
    if (j->rc == LAB_ECANCEL)
        lab_menu_status(m, "grading cancelled after %.1f s", lab_clock_now() - j->t0);
    else if (j->rc < 0)
        lab_menu_status(m, "%s", j->err.msg);
    else
        lab_menu_status(m, "%s: %s", lab_verdict_describe(j->g.result.verdict)->name,
                        j->g.result.message);
    if (text) {
        lab_menu_exercise_graded(m, j->ex, text);
        if (j->rc == 0 && !(m->watch_ex == j->ex))
            lab_menu_open_result(m, j->ex, text);
    }
    free(text);
    job_free(j);
}

int
lab_menu_job_poll(lab_menu *m)
{
    struct lab_menu_job *j = m->job;
    job_msg msg;
    ssize_t n;

    if (!j)
        return 0;
    for (;;) {
        struct pollfd pfd = { j->fd[0], POLLIN, 0 };
        if (poll(&pfd, 1, 0) <= 0)
            break;
        n = read(j->fd[0], &msg, sizeof(msg));
        if (n != (ssize_t)sizeof(msg))
            break;
        if (msg.done) {
            job_done(m);
            return 1;
        }
        if (!j->cancel)
            snprintf(j->stage, sizeof(j->stage), "%s %s", lab_cli_stage_name(msg.stage), msg.what);
    }
    snprintf(m->progress, sizeof(m->progress), "grading %s: %s ... %.1f s   (c: cancel)", j->ex->id,
             j->stage, lab_clock_now() - j->t0);
    return 0;
}

void
lab_menu_job_stop(lab_menu *m)
{
    if (!m->job)
        return;
    lab_menu_job_cancel(m);
    while (m->job) {
        struct pollfd pfd = { m->job->fd[0], POLLIN, 0 };
        poll(&pfd, 1, 100);
        lab_menu_job_poll(m);
    }
}
