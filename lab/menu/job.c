/*
 * job.c - work that runs while the menu stays responsive: a grading, a
 * demo, a profile or an inspection (lab_menu_work, menu.h), one at a time.
 *
 * Design: the work's run function runs in one worker thread; the UI thread
 * never blocks on it.  The worker reports through a pipe: each stage is one
 * fixed-size message (writes under PIPE_BUF are atomic), and one "done"
 * message at the end.  The UI polls the pipe's read end beside the keyboard
 * (menu.c's loop), shows "grading EX: compiling ... 2.1 s" with the elapsed
 * time, and on "done" joins the thread and calls the work's done function,
 * which shows the result, then its free function.
 *
 * Cancel: the UI sets the work's sig_atomic_t flag; lab/platform/proc.c looks at
 * it every 50 ms while it waits for nvcc, a driver or ncu, kills the child's
 * whole process group (SIGTERM, grace, SIGKILL) and reaps it, and the core
 * returns LAB_ECANCEL, so no child is left behind.  Quitting the menu during
 * a job cancels and joins the same way.
 *
 * Sharing: while the worker runs, only it uses the lab (toolchain, store
 * connection, device); the UI reads progress through its own store
 * connection (SQLite WAL) and starts no other work.  The worker blocks every
 * signal, so SIGWINCH and the others reach the UI thread; children reset
 * their mask (proc.c).
 */
#include "lab/menu/menu.h"
#include "lab/util/i18n.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/util/clock.h"

typedef struct job_msg {
    int done; /* 0: a stage; 1: the work returned */
    char what[160];
} job_msg;

struct lab_menu_job {
    pthread_t thread;
    int fd[2];
    lab *lab;
    lab_menu_work *work;
    lab_err err;
    int rc;
    double t0;
    char stage[160];
};

/* The progress line (cut at its size: a long name only shortens it). */
static void set_progress(lab_menu *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
set_progress(lab_menu *m, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(m->progress, sizeof(m->progress), fmt, ap);
    va_end(ap);
}

void
lab_menu_work_stage(lab_menu_work *w, const char *what)
{
    job_msg msg = { 0, "" };

    snprintf(msg.what, sizeof(msg.what), "%s", what);
    if (write(w->job->fd[1], &msg, sizeof(msg)) < 0)
        return; /* the UI shows the last stage it got */
}

static void *
job_main(void *arg)
{
    struct lab_menu_job *j = arg;
    job_msg msg = { 1, "" };

    j->rc = j->work->run(j->work, j->lab, &j->err);
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
    if (j->work)
        j->work->free(j->work);
    free(j);
}

bool
lab_menu_job_idle(lab_menu *m)
{
    if (!m->job)
        return true;
    lab_menu_status(m, _("%s %s is under way: c cancels it"), _(m->job->work->verb),
                    m->job->work->subject);
    return false;
}

int
lab_menu_job_run(lab_menu *m, lab_menu_work *w)
{
    struct lab_menu_job *j;
    sigset_t all, old;
    int rc;

    if (m->job) {
        w->free(w);
        return LAB_EINVAL;
    }
    if (!(j = calloc(1, sizeof(*j)))) {
        w->free(w);
        return LAB_ENOMEM;
    }
    j->fd[0] = j->fd[1] = -1;
    j->work = w;
    j->err = (lab_err)LAB_ERR_INIT;
    if (pipe2(j->fd, O_CLOEXEC) < 0) {
        lab_menu_status(m, _("cannot start %s: pipe: %s"), _(w->verb), strerror(errno));
        job_free(j);
        return LAB_EIO;
    }
    j->lab = m->lab;
    w->job = j;
    w->cancel = 0;
    j->t0 = lab_clock_now();
    snprintf(j->stage, sizeof(j->stage), "starting");
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    rc = pthread_create(&j->thread, NULL, job_main, j);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc) {
        lab_menu_status(m, _("cannot start %s: no thread: %s"), _(w->verb), strerror(rc));
        job_free(j);
        return LAB_ENOMEM;
    }
    m->job = j;
    set_progress(m, _("%s %s: starting   (c: cancel)"), _(w->verb), w->subject);
    return 0;
}

static void
viewwork_done(lab_menu *m, lab_menu_work *w, int rc, const lab_err *err)
{
    lab_menu_viewwork_done(m, w, rc, err);
}

static void
viewwork_free(lab_menu_work *w)
{
    lab_menu_viewwork *vw = (lab_menu_viewwork *)w;

    if (vw->result)
        vw->result_free(vw->result);
    free(vw);
}

int
lab_menu_open_job(lab_menu *m, const lab_menu_screen *s, void *state, const char *title,
                  lab_menu_viewwork *w)
{
    lab_menu_viewjob *vj = state;

    w->screen = s;
    w->key = vj->key;
    w->base.done = w->base.done ? w->base.done : viewwork_done;
    w->base.free = viewwork_free;
    vj->running = true;
    if (lab_menu_push(m, s, state, title) < 0) {
        w->base.free(&w->base);
        return LAB_ENOMEM;
    }
    if (lab_menu_job_run(m, &w->base) < 0) { /* it freed w */
        vj->running = false;
        vj->rc = LAB_EINVAL;
        snprintf(vj->error, sizeof(vj->error), _("could not start: %s"), m->status);
        return LAB_EINVAL;
    }
    return 0;
}

void *
lab_menu_viewwork_done(lab_menu *m, lab_menu_work *w, int rc, const lab_err *err)
{
    lab_menu_viewwork *vw = (lab_menu_viewwork *)w;

    for (int i = m->depth - 1; i >= 0; i--) {
        lab_menu_viewjob *vj = m->stack[i]->state;
        if (m->stack[i]->screen != vw->screen || vj->key != vw->key || !vj->running)
            continue;
        vj->running = false;
        vj->rc = rc;
        snprintf(vj->error, sizeof(vj->error), "%s", rc < 0 ? err->msg : "");
        lab_menu_viewjob_release(vj);
        vj->result = vw->result; /* the view's now */
        vj->result_free = vw->result_free;
        vw->result = NULL;
        m->stack[i]->stale = true;
        m->stack[i]->top = 0;
        return vj;
    }
    return NULL;
}

void
lab_menu_viewjob_release(lab_menu_viewjob *vj)
{
    if (vj->result)
        vj->result_free(vj->result);
    vj->result = NULL;
}

void
lab_menu_viewjob_free(void *state)
{
    if (state)
        lab_menu_viewjob_release(state);
    free(state);
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
    m->job->work->cancel = 1;
    snprintf(m->job->stage, sizeof(m->job->stage), "cancelling");
}

int
lab_menu_viewjob_cancel_key(lab_menu *m, lab_menu_view *v)
{
    const lab_menu_viewjob *vj = v->state;

    if (vj->running)
        lab_menu_job_cancel(m);
    else
        lab_menu_status(m, _("nothing to cancel"));
    return LAB_MENU_REDRAW;
}

int
lab_menu_job_cancel_key(lab_menu *m, lab_menu_view *v)
{
    (void)v;
    if (m->job)
        lab_menu_job_cancel(m);
    else
        lab_menu_status(m, _("nothing to cancel"));
    return LAB_MENU_REDRAW;
}

static void
job_done(lab_menu *m)
{
    struct lab_menu_job *j = m->job;

    pthread_join(j->thread, NULL);
    m->job = NULL;
    m->progress[0] = '\0';
    if (j->rc == LAB_ECANCEL)
        lab_menu_status(m, _("%s cancelled after %.1f s"), _(j->work->verb),
                        lab_clock_now() - j->t0);
    else if (j->rc < 0)
        lab_menu_status(m, "%s", j->err.msg);
    j->work->done(m, j->work, j->rc, &j->err);
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
        if (!j->work->cancel)
            snprintf(j->stage, sizeof(j->stage), "%s", msg.what);
    }
    set_progress(m, _("%s %s: %s ... %.1f s   (c: cancel)"), _(j->work->verb), j->work->subject,
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
