/*
 * proc.h - child processes: spawn, capture, time out, reap.
 *
 * Every external program the lab runs (nvcc, an exercise driver) goes through
 * one lab_proc.  The child runs in its own process group with default signal
 * dispositions, stdin from /dev/null (or the go channel: wait_go), stdout and stderr captured
 * (capped), and optionally a "report" pipe: a third pipe whose write end is dup'ed to report_fd in
 * the child (the driver writes its JSON report there, so nothing the student's code prints on
 * stdout can reach the grader).
 *
 * Call order (as in git's run-command.h):
 *   1. lab_proc_init(&p);  fill p.argv (argv[0] is looked up on PATH), and
 *      optionally p.env ("NAME=value" entries added to the environment),
 *      p.dir, p.report_fd, p.timeout_s, p.grace_s, p.output_cap, p.output_limit, p.cancel.
 *   2. lab_proc_start(&p, &err)  - fork/exec; "cannot run 'nvcc': No such
 *      file or directory" (LAB_ETOOL) is reported here, from the child's
 *      errno.  argv[0] is looked up on the child's PATH (p.env included); a
 *      relative name with a '/' is relative to p.dir.
 *   3. lab_proc_finish(&p, &err) - polls the pipes against the deadline,
 *      kills the group on timeout, cancel or a flood of output (SIGTERM, grace, SIGKILL),
 *      waits for the child and fills the results below.  Returns 0 whenever
 *      the child was reaped, whatever its exit status; check the results.
 *      Once the child has exited, whatever is left of its process group is
 *      killed, and pipes held open by an escaped grandchild are given up
 *      after a short drain, so finish never waits on grandchildren.
 *   4. lab_proc_release(&p) - frees everything; on a started child that was
 *      never finished it kills the group and reaps the child first.
 * lab_proc_run does 2 and 3.  A lab_proc may be started again after finish.
 *
 * Live children sit in a list; lab_proc_kill_all() (called by the signal
 * handlers that lab_proc_install_cleanup() installs, and at exit) kills
 * their process groups, so no child outlives the lab.
 */
#ifndef LAB_PLATFORM_PROC_H
#define LAB_PLATFORM_PROC_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "lab/util/buf.h"
#include "lab/util/err.h"
#include "lab/util/strvec.h"

#define LAB_PROC_DEFAULT_CAP (256 * 1024) /* bytes of each stream kept */
#define LAB_PROC_PASS_MAX 4               /* descriptors a child may be given */

/* Resource limits set in the child before exec (setrlimit, soft and hard); 0 leaves one as it
 * is, and a lower hard limit the lab runs under is kept.  They hold for everything the child
 * runs, a sandbox's contents included. */
typedef struct lab_proc_limits {
    unsigned long cpu_s;            /* RLIMIT_CPU: seconds of CPU time */
    unsigned long long as_bytes;    /* RLIMIT_AS: address space */
    unsigned long long fsize_bytes; /* RLIMIT_FSIZE: largest file written */
    unsigned long nproc;            /* RLIMIT_NPROC: processes and threads of the user */
    unsigned long nofile;           /* RLIMIT_NOFILE */
} lab_proc_limits;

typedef struct lab_proc {
    /* set by the caller */
    lab_strvec argv;     /* program and arguments */
    lab_strvec env;      /* extra NAME=value entries; a bare NAME unsets */
    bool env_only;       /* the environment is env alone: nothing of the lab's */
    const char *dir;     /* working directory, or NULL */
    int report_fd;       /* >= 3: open a report pipe on this fd; -1: none */
    double timeout_s;    /* wall-clock limit; 0 = none */
    double grace_s;      /* SIGTERM to SIGKILL; default (or <= 0) 1 s */
    size_t output_cap;   /* per stream; default (or 0) LAB_PROC_DEFAULT_CAP */
    size_t output_limit; /* stdout and stderr together, kept or dropped: past it the group is
                            killed as on a timeout, flooded (0: none) */
    const volatile sig_atomic_t *cancel; /* when *cancel becomes nonzero: kill, cancelled */
    lab_proc_limits limits;              /* rlimits in the child; all 0 by default */
    int pass_fd[LAB_PROC_PASS_MAX];      /* the parent's descriptors the child gets, open, at
                                            report_fd + 1, + 2, ... (3, 4, ... without a report
                                            pipe): a file reached by no path (the caller closes them) */
    size_t npass;
    bool status_pipe;     /* one more pipe, at lab_proc_status_fd in the child, whose bytes (a short
                             status, as bubblewrap's --json-status-fd writes it) are kept in status_text
                           */
    bool die_with_parent; /* SIGKILL the child's whole process group when the thread that
                             started it dies (even by SIGKILL, which no cleanup handler sees):
                             a keeper process leads the group, the program runs as its child,
                             and pid is the keeper's; that thread must outlive the child */
    bool wait_go;         /* stdin is the go channel: the child may read one byte from it once
                             the parent calls lab_proc_go (EOF when finish starts without it, or
                             the parent dies); the timeout counts from the go */
    void (*report_done)(void *ctx); /* called once in finish when the report pipe reaches its
                                       end (the child closed it, or exited): before the reaping */
    void *report_done_ctx;

    /* results, valid after lab_proc_finish */
    pid_t pid;
    lab_buf out;         /* stdout, at most output_cap bytes */
    lab_buf errout;      /* stderr, at most output_cap bytes */
    lab_buf report;      /* bytes read from the report pipe, at most output_cap */
    lab_buf status_text; /* bytes read from the status pipe, at most output_cap */
    size_t out_dropped;  /* bytes past the cap, counted and dropped */
    size_t err_dropped;
    size_t report_dropped;
    bool exited; /* exited normally: exit_code is valid */
    int exit_code;
    int term_signal;  /* signal that ended it, 0 if none */
    int status;       /* exit_code, or 128 + term_signal */
    bool timed_out;   /* killed by us at the deadline */
    bool flooded;     /* killed by us past output_limit bytes of output */
    bool cancelled;   /* killed by us because *cancel was set */
    double elapsed_s; /* wall time from start to reaping */

    struct lab_proc__run *run; /* private to proc.c: pipes and clock, start to finish */
} lab_proc;

void lab_proc_init(lab_proc *p);
/* The fd the status pipe gets in the child: after report_fd and the passed fds, so set those
 * first. */
int lab_proc_status_fd(const lab_proc *p);
int lab_proc_start(lab_proc *p, lab_err *err);
int lab_proc_finish(lab_proc *p, lab_err *err);
int lab_proc_run(lab_proc *p, lab_err *err);
/* For a child started with wait_go: one byte on its stdin, which it may be waiting for, and its
 * timeout starts now.  A child already gone is no error (finish tells how it ended). */
void lab_proc_go(lab_proc *p);
/* For a child started with wait_go: bytes on its stdin before the go (blocking until they are
 * written); <0 when the channel is gone (the child ended: finish tells how). */
int lab_proc_send(lab_proc *p, const void *data, size_t len, lab_err *err);
/* Whether the child has ended (not reaped: finish still collects it), e.g. a wait_go child that
 * gave up before its go. */
bool lab_proc_ended(const lab_proc *p);
/* Kill the child's process group now (SIGKILL); finish still reaps it. */
void lab_proc_kill(lab_proc *p);
void lab_proc_release(lab_proc *p);

/* A one-line description of how the child ended: "exited with status 2",
 * "killed by signal 11 (Segmentation fault)", "timed out after 5.0 s". */
const char *lab_proc_describe(const lab_proc *p, char *buf, size_t size);

/* Kill every live child's process group (async-signal-safe). */
void lab_proc_kill_all(void);
/* Install SIGINT/SIGTERM/SIGHUP handlers and an atexit hook that kill all
 * live children; a signal then re-raises itself with the default action. */
int lab_proc_install_cleanup(lab_err *err);

#endif
