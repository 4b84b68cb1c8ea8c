/*
 * proc.c - child processes: spawn, capture, time out, reap (see proc.h).
 *
 * lab_proc_start prepares everything the child needs (argv, the environment,
 * the PATH candidates, /dev/null and the pipes), claims a slot in the list of
 * live children, then forks with every signal blocked.  The child only makes
 * async-signal-safe calls until execve: its own process group, default signal
 * dispositions and an empty mask, the pipes dup'ed onto 0, 1, 2 and report_fd,
 * every other fd closed, chdir.  If execve fails it writes its stage and errno
 * to a close-on-exec "notify" pipe and _exit(127)s; start reads that pipe until
 * EOF, so it knows whether the exec happened.  A child that must die with the
 * lab forks once more before exec: it stays as the group's keeper (its
 * parent-death signal makes it kill the whole group, so nvcc's cicc and ptxas
 * die with the lab too) and ends as the program ended.
 *
 * lab_proc_finish polls the output pipes and a pidfd (which wakes it when the
 * child exits; kernels without one get a 10 ms tick) against the deadline, the
 * SIGTERM grace and the cancel flag.  It notices the exit with waitid(WNOWAIT)
 * so the zombie keeps the process group id reserved while it SIGKILLs what is
 * left of the group and drains the pipes; only then is the slot cleared and
 * the child reaped.
 *
 * The list of live children is the one global: chunks of slots, lock-free, so
 * that lab_proc_kill_all can walk it from a signal handler.  A slot records the
 * pid that started the child, so a fork of the lab that exits leaves its
 * parent's children alone.
 */
#include "lab/platform/proc.h"
#include "lab/util/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define LIVE_CHUNK 32        /* slots per chunk of the live list */
#define CANCEL_TICK_S 0.05   /* how often *cancel is looked at */
#define NOPIDFD_TICK_S 0.01  /* how often the exit is looked for without a pidfd */
#define DRAIN_IDLE_S 0.1     /* after the exit: give up on pipes silent this long */
#define DRAIN_MAX_S 1.0      /* after the exit: give up on pipes after this long */
#define FALLBACK_MAXFD 65536 /* fds closed one by one where close_range is missing */
#define READ_CHUNK (64 * 1024)
#define KEEPER_SIGNAL SIGUSR2 /* the parent-death signal of a group's keeper */

_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the live list is read from signal handlers");
_Static_assert(sizeof(pid_t) == sizeof(int), "pid_t slots are atomic ints");

enum child_stage {
    STAGE_SETUP, /* moving or closing fds */
    STAGE_CHDIR,
    STAGE_EXEC,
    STAGE_LIMITS, /* setrlimit */
};

/* What a child that could not exec writes on the notify pipe. */
struct child_failure {
    int stage; /* an enum child_stage */
    int errnum;
};

/* Everything the child needs, made before fork: the child may not allocate. */
struct child_plan {
    char *const *argv;
    char *const *envp;
    char *const *paths; /* where to try argv[0], in PATH order */
    const char *dir;
    int in_r; /* stdin: /dev/null, or the go channel's end */
    int out_w;
    int err_w;
    int report_w; /* -1 without a report pipe */
    int report_fd;
    int status_w;                /* -1 without a status pipe; else it goes after the passed fds */
    int pass[LAB_PROC_PASS_MAX]; /* the parent's fds the child gets at first_pass, ... */
    size_t npass;
    int notify_w;
    int maxfd; /* highest fd to close where close_range is missing */
    lab_proc_limits limits;
    pid_t parent; /* 0, or: die with it */
};

struct live_slot {
    _Atomic pid_t pgid;  /* > 0: a live group; 0: free; -1: claimed, not forked yet */
    _Atomic pid_t owner; /* the process that started the child */
};

struct live_chunk {
    struct live_slot slot[LIVE_CHUNK];
    struct live_chunk *_Atomic next;
};

#define NSTREAMS 4 /* stdout, stderr, report, status */

struct lab_proc__run {
    int fd[NSTREAMS];       /* read ends: stdout, stderr, report, status; -1 once closed */
    int go_w;               /* the go channel's end (wait_go), -1 once the byte is sent */
    int pidfd;              /* readable once the child exits; -1 without one */
    struct live_slot *slot; /* this child's entry in the live list */
    double start;           /* CLOCK_MONOTONIC seconds at start */
};

/* The live children; chunks are appended, never freed. */
static struct live_chunk live_head;
/* Set once lab_proc_install_cleanup has run. */
static volatile sig_atomic_t cleanup_installed;

static const int cleanup_signals[] = { SIGINT, SIGTERM, SIGHUP };

static void
close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

/* ---- the live list ---- */

static struct live_slot *
live_claim(void)
{
    struct live_chunk *c = &live_head;

    for (;;) {
        struct live_chunk *next;

        for (size_t i = 0; i < LIVE_CHUNK; i++) {
            pid_t free_pgid = 0;

            if (atomic_compare_exchange_strong(&c->slot[i].pgid, &free_pgid, -1)) {
                atomic_store(&c->slot[i].owner, getpid());
                return &c->slot[i];
            }
        }
        next = atomic_load(&c->next);
        if (!next) {
            struct live_chunk *fresh = malloc(sizeof(*fresh));

            if (!fresh)
                return NULL;
            for (size_t i = 0; i < LIVE_CHUNK; i++) {
                atomic_init(&fresh->slot[i].pgid, 0);
                atomic_init(&fresh->slot[i].owner, 0);
            }
            atomic_init(&fresh->next, NULL);
            /* another thread may have appended first: then use its chunk */
            if (atomic_compare_exchange_strong(&c->next, &next, fresh))
                next = fresh;
            else
                free(fresh);
        }
        c = next;
    }
}

static void
live_release(struct live_slot **slot)
{
    if (*slot)
        atomic_store(&(*slot)->pgid, 0);
    *slot = NULL;
}

void
lab_proc_kill_all(void)
{
    int saved_errno = errno;
    pid_t self = getpid();

    for (struct live_chunk *c = &live_head; c; c = atomic_load(&c->next)) {
        for (size_t i = 0; i < LIVE_CHUNK; i++) {
            pid_t pgid = atomic_load(&c->slot[i].pgid);

            if (pgid > 0 && atomic_load(&c->slot[i].owner) == self)
                kill(-pgid, SIGKILL);
        }
    }
    errno = saved_errno;
}

static void
cleanup_on_signal(int sig)
{
    struct sigaction dfl;

    lab_proc_kill_all();
    memset(&dfl, 0, sizeof(dfl));
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    /* blocked while this handler runs: delivered, with the default action, on return */
    raise(sig);
}

static void
cleanup_at_exit(void)
{
    lab_proc_kill_all();
}

int
lab_proc_install_cleanup(lab_err *err)
{
    struct sigaction sa;

    if (cleanup_installed)
        return 0;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = cleanup_on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < ARRAY_SIZE(cleanup_signals); i++) {
        struct sigaction old;

        if (sigaction(cleanup_signals[i], NULL, &old) < 0)
            return lab_err_set(err, LAB_EINVAL, "cannot read the handler of signal %d: %s",
                               cleanup_signals[i], strerror(errno));
        /* an ignored signal (nohup, a background job) stays ignored */
        if (old.sa_handler == SIG_IGN)
            continue;
        if (sigaction(cleanup_signals[i], &sa, NULL) < 0)
            return lab_err_set(err, LAB_EINVAL, "cannot handle signal %d: %s", cleanup_signals[i],
                               strerror(errno));
    }
    if (atexit(cleanup_at_exit) != 0)
        return lab_err_set(err, LAB_ENOMEM, "cannot register the exit hook");
    cleanup_installed = 1;
    return 0;
}

/* ---- preparing the child ---- */

static size_t
env_name_len(const char *entry)
{
    const char *eq = strchr(entry, '=');

    return eq ? (size_t)(eq - entry) : strlen(entry);
}

static bool
env_same_name(const char *a, const char *b)
{
    size_t n = env_name_len(a);

    return n == env_name_len(b) && strncmp(a, b, n) == 0;
}

/* Does an entry of extra, from index `from` on, set or unset the name of entry? */
static bool
env_overridden(const lab_strvec *extra, size_t from, const char *entry)
{
    for (size_t i = from; i < extra->n; i++)
        if (env_same_name(extra->v[i], entry))
            return true;
    return false;
}

/* The child's environment: ours (unless only), less the names extra sets or unsets, plus
 * extra. */
static int
build_env(const lab_strvec *extra, bool only, lab_strvec *out)
{
    int rc;

    for (char **e = only ? NULL : environ; e && *e; e++)
        if (!env_overridden(extra, 0, *e) && (rc = lab_strvec_push(out, *e)) < 0)
            return rc;
    for (size_t i = 0; i < extra->n; i++) {
        /* a bare NAME only unsets; of several NAME=, the last wins */
        if (!strchr(extra->v[i], '=') || env_overridden(extra, i + 1, extra->v[i]))
            continue;
        if ((rc = lab_strvec_push(out, extra->v[i])) < 0)
            return rc;
    }
    return 0;
}

/* Where execve should try prog: itself if it has a '/', else each PATH entry. */
static int
build_paths(const char *prog, char *const *envp, lab_strvec *out)
{
    const char *path = "/bin:/usr/bin";
    int rc;

    if (strchr(prog, '/') || !*prog)
        return lab_strvec_push(out, prog);
    for (char *const *e = envp; e && *e; e++)
        if (strncmp(*e, "PATH=", 5) == 0)
            path = *e + 5;
    for (;;) {
        size_t len = strcspn(path, ":");

        /* an empty entry is the working directory */
        if (len == 0)
            rc = lab_strvec_pushf(out, "./%s", prog);
        else
            rc = lab_strvec_pushf(out, "%.*s/%s", (int)len, path, prog);
        if (rc < 0)
            return rc;
        if (!path[len])
            return 0;
        path += len + 1;
    }
}

/* ---- in the child: async-signal-safe calls only ---- */

static _Noreturn void
child_fail(int notify_w, enum child_stage stage)
{
    struct child_failure f = { stage, errno };

    /* one write under PIPE_BUF is atomic; if it fails, start sees EOF and finish a 127 */
    while (write(notify_w, &f, sizeof(f)) < 0 && errno == EINTR)
        ;
    _exit(127);
}

/* Move *fd to at least low, so that no source fd sits where a dup2 lands. */
static int
child_lift(int *fd, int low)
{
    if (*fd < 0 || *fd >= low)
        return 0;
    *fd = fcntl(*fd, F_DUPFD_CLOEXEC, low);
    return *fd < 0 ? -1 : 0;
}

static void
child_close_range(unsigned lo, unsigned hi, int maxfd)
{
    if (lo > hi || close_range(lo, hi, 0) == 0)
        return;
    /* kernels before 5.9 */
    for (unsigned fd = lo; fd <= hi && fd <= (unsigned)maxfd; fd++)
        close((int)fd);
}

static int
child_dup(int from, int to)
{
    return dup2(from, to) < 0 ? -1 : 0;
}

/* A hard limit set from outside (ulimit -Hv 4194304) that is lower already holds: the child
 * keeps it, where raising it would fail. */
static int
child_limit(int resource, unsigned long long value)
{
    struct rlimit rl = { (rlim_t)value, (rlim_t)value }, now;

    if (!value)
        return 0;
    if (getrlimit(resource, &now) == 0 && now.rlim_max != RLIM_INFINITY &&
        now.rlim_max < rl.rlim_max)
        rl.rlim_cur = rl.rlim_max = now.rlim_max;
    return setrlimit(resource, &rl);
}

/* Kills every child the keeper has left: as the subreaper it inherits whatever the program's
 * processes orphan, a daemon that left the group with setsid and a double fork among them,
 * which a kill of the group misses (# 34).  Their own children come to the keeper in turn, so
 * it goes on until it has none (or gives up after many rounds).  Async-signal-safe. */
static void
keeper_kill_orphans(void)
{
    const struct timespec pause = { 0, 1000000 }; /* 1 ms */
    char buf[4096];

    for (int round = 0; round < 2000; round++) {
        int fd = open("/proc/thread-self/children", O_RDONLY | O_CLOEXEC);
        ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
        long pid = 0;
        bool any = false;

        if (fd >= 0)
            close(fd);
        while (waitpid(-1, NULL, WNOHANG) > 0) /* the dead among them */
            ;
        for (ssize_t i = 0; i <= n; i++) { /* "123 456 " */
            if (i < n && buf[i] >= '0' && buf[i] <= '9') {
                pid = pid * 10 + (buf[i] - '0');
                continue;
            }
            if (pid > 0 && kill((pid_t)pid, SIGKILL) == 0)
                any = true;
            pid = 0;
        }
        if (!any)
            return;
        nanosleep(&pause, NULL);
    }
}

/* The group's keeper, when the child must die with the lab: it leads the group, the program
 * runs as its child, and when the lab dies (even by SIGKILL: the kernel sends the keeper
 * KEEPER_SIGNAL) it kills the whole group, so nothing the program started (nvcc's cicc and
 * ptxas) outlives the lab.  It is the subreaper of everything below it, so a process that left
 * the group (setsid) still comes back to it when its parent ends, and goes when the program
 * does.  Otherwise it ends as the program ended, so the lab sees the program's status.  Signals
 * are blocked here; it waits for them with sigwaitinfo. */
static _Noreturn void
child_keep_group(pid_t program, pid_t parent, int maxfd)
{
    sigset_t wait_for, one;
    siginfo_t info;
    int status;

    child_close_range(0, ~0U, maxfd); /* the pipes are the program's; start sees its exec */
    sigemptyset(&wait_for);
    sigaddset(&wait_for, SIGCHLD);
    sigaddset(&wait_for, KEEPER_SIGNAL);
    for (;;) {
        if (sigwaitinfo(&wait_for, &info) < 0)
            continue;
        if (info.si_signo == KEEPER_SIGNAL && getppid() != parent) {
            keeper_kill_orphans();
            kill(0, SIGKILL); /* the lab is gone: the whole group goes, the keeper with it */
        }
        if (info.si_signo != SIGCHLD || waitpid(program, &status, WNOHANG) != program)
            continue;
        keeper_kill_orphans();
        if (WIFEXITED(status))
            _exit(WEXITSTATUS(status));
        if (WIFSIGNALED(status)) { /* die of the same signal (its action is the default) */
            kill(getpid(), WTERMSIG(status));
            sigemptyset(&one);
            sigaddset(&one, WTERMSIG(status));
            sigprocmask(SIG_UNBLOCK, &one, NULL);
            _exit(128 + WTERMSIG(status));
        }
    }
}

static _Noreturn void
child_run(struct child_plan *cp)
{
    struct sigaction dfl;
    sigset_t none;
    int first_pass = cp->report_fd >= 3 ? cp->report_fd + 1 : 3;
    int status_fd = first_pass + (int)cp->npass;
    int low = status_fd + (cp->status_w >= 0);
    bool saw_eacces = false;

    setpgid(0, 0);
    /* the parent may have died before prctl: then getppid() is no longer it */
    if (cp->parent && (prctl(PR_SET_PDEATHSIG, KEEPER_SIGNAL) < 0 || getppid() != cp->parent))
        _exit(127);
    memset(&dfl, 0, sizeof(dfl));
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    /* signals are still blocked, so no handler of the parent runs here */
    for (int sig = 1; sig < NSIG; sig++)
        sigaction(sig, &dfl, NULL); /* fails, harmlessly, for KILL, STOP and libc's own */
    sigemptyset(&none);

    if (child_lift(&cp->in_r, low) < 0 || child_lift(&cp->out_w, low) < 0 ||
        child_lift(&cp->err_w, low) < 0 || child_lift(&cp->report_w, low) < 0 ||
        child_lift(&cp->status_w, low) < 0 || child_lift(&cp->notify_w, low) < 0)
        child_fail(cp->notify_w, STAGE_SETUP);
    for (size_t i = 0; i < cp->npass; i++)
        if (child_lift(&cp->pass[i], low) < 0)
            child_fail(cp->notify_w, STAGE_SETUP);
    if (child_dup(cp->in_r, 0) < 0 || child_dup(cp->out_w, 1) < 0 || child_dup(cp->err_w, 2) < 0 ||
        (cp->report_w >= 0 && child_dup(cp->report_w, cp->report_fd) < 0))
        child_fail(cp->notify_w, STAGE_SETUP);
    for (size_t i = 0; i < cp->npass; i++)
        if (child_dup(cp->pass[i], first_pass + (int)i) < 0)
            child_fail(cp->notify_w, STAGE_SETUP);
    if (cp->status_w >= 0 && child_dup(cp->status_w, status_fd) < 0)
        child_fail(cp->notify_w, STAGE_SETUP);
    /* keep 0-2, report_fd, the passed fds, the status fd and notify_w (which is above them,
     * close-on-exec) */
    if (cp->report_w >= 0)
        child_close_range(3, (unsigned)cp->report_fd - 1, cp->maxfd);
    child_close_range((unsigned)low, (unsigned)cp->notify_w - 1, cp->maxfd);
    child_close_range((unsigned)cp->notify_w + 1, ~0U, cp->maxfd);

    if (cp->dir && chdir(cp->dir) < 0)
        child_fail(cp->notify_w, STAGE_CHDIR);
    if (child_limit(RLIMIT_CPU, cp->limits.cpu_s) < 0 ||
        child_limit(RLIMIT_AS, cp->limits.as_bytes) < 0 ||
        child_limit(RLIMIT_FSIZE, cp->limits.fsize_bytes) < 0 ||
        child_limit(RLIMIT_NPROC, cp->limits.nproc) < 0 ||
        child_limit(RLIMIT_NOFILE, cp->limits.nofile) < 0)
        child_fail(cp->notify_w, STAGE_LIMITS);
    if (cp->parent) {
        pid_t keeper = getpid(), program;

        /* before the fork: what the program orphans, however it left the group, comes here */
        if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
            child_fail(cp->notify_w, STAGE_SETUP);
        program = fork();

        if (program < 0)
            child_fail(cp->notify_w, STAGE_SETUP);
        if (program > 0)
            child_keep_group(program, cp->parent, cp->maxfd);
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != keeper)
            _exit(127);
    }
    sigprocmask(SIG_SETMASK, &none, NULL);

    for (char *const *path = cp->paths; *path; path++) {
        execve(*path, cp->argv, cp->envp);
        if (errno == EACCES)
            saw_eacces = true;
        else if (errno != ENOENT && errno != ENOTDIR && errno != ESTALE)
            break;
    }
    /* as execvp: a file we may not run says more than a later "not found" */
    if (saw_eacces && (errno == ENOENT || errno == ENOTDIR || errno == ESTALE))
        errno = EACCES;
    child_fail(cp->notify_w, STAGE_EXEC);
}

/* ---- in the parent ---- */

static int
open_pipe(int fds[2], bool parent_reads, const char *prog, lab_err *err)
{
    if (pipe2(fds, O_CLOEXEC) < 0)
        return lab_err_set(err, LAB_ECHILD, "cannot create a pipe for '%s': %s", prog,
                           strerror(errno));
    /* only our end is non-blocking: the child writes as usual */
    if (parent_reads && fcntl(fds[0], F_SETFL, O_NONBLOCK) < 0)
        return lab_err_set(err, LAB_ECHILD, "cannot set up a pipe for '%s': %s", prog,
                           strerror(errno));
    return 0;
}

/* The go channel: a socket pair, so that the go byte can be sent with MSG_NOSIGNAL (a child
 * already gone is no SIGPIPE for the lab); [0] becomes the child's stdin. */
static int
open_go_channel(int fds[2], const char *prog, lab_err *err)
{
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) < 0)
        return lab_err_set(err, LAB_ECHILD, "cannot create the go channel for '%s': %s", prog,
                           strerror(errno));
    return 0;
}

static int
wait_retry(pid_t pid, int *status)
{
    pid_t r;

    while ((r = waitpid(pid, status, 0)) < 0 && errno == EINTR)
        ;
    return r < 0 ? -1 : 0;
}

/* Read what the child wrote on the notify pipe: 0 bytes if the exec happened. */
static size_t
read_notify(int fd, struct child_failure *f)
{
    size_t got = 0;

    while (got < sizeof(*f)) {
        ssize_t n = read(fd, (char *)f + got, sizeof(*f) - got);

        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    return got;
}

static int
report_failure(const lab_proc *p, const struct child_failure *f, lab_err *err)
{
    const char *prog = p->argv.v[0];

    switch (f->stage) {
    case STAGE_CHDIR:
        return lab_err_set(err, LAB_ECHILD, "cannot run '%s' in '%s': %s", prog, p->dir,
                           strerror(f->errnum));
    case STAGE_EXEC:
        return lab_err_set(err, LAB_ETOOL, "cannot run '%s': %s", prog, strerror(f->errnum));
    case STAGE_LIMITS:
        return lab_err_set(err, LAB_ECHILD, "cannot set the resource limits of '%s': %s", prog,
                           strerror(f->errnum));
    default:
        return lab_err_set(err, LAB_ECHILD, "cannot set up the child for '%s': %s", prog,
                           strerror(f->errnum));
    }
}

static void
reset_results(lab_proc *p)
{
    p->pid = 0;
    lab_buf_reset(&p->out);
    lab_buf_reset(&p->errout);
    lab_buf_reset(&p->report);
    lab_buf_reset(&p->status_text);
    p->out_dropped = 0;
    p->err_dropped = 0;
    p->report_dropped = 0;
    p->exited = false;
    p->exit_code = 0;
    p->term_signal = 0;
    p->status = 0;
    p->timed_out = false;
    p->flooded = false;
    p->cancelled = false;
    p->elapsed_s = 0;
}

static int
fallback_maxfd(void)
{
    long max = sysconf(_SC_OPEN_MAX);

    return max < 0 || max > FALLBACK_MAXFD ? FALLBACK_MAXFD : (int)max;
}

void
lab_proc_init(lab_proc *p)
{
    memset(p, 0, sizeof(*p));
    p->argv = (lab_strvec)LAB_STRVEC_INIT;
    p->env = (lab_strvec)LAB_STRVEC_INIT;
    p->report_fd = -1;
    p->grace_s = 1.0;
    p->output_cap = LAB_PROC_DEFAULT_CAP;
    lab_buf_init(&p->out);
    lab_buf_init(&p->errout);
    lab_buf_init(&p->report);
    lab_buf_init(&p->status_text);
    p->run = NULL;
}

int
lab_proc_status_fd(const lab_proc *p)
{
    return (p->report_fd >= 3 ? p->report_fd + 1 : 3) + (int)p->npass;
}

int
lab_proc_start(lab_proc *p, lab_err *err)
{
    char *const no_strings[] = { NULL };
    struct lab_proc__run *run = NULL;
    struct child_plan cp;
    struct child_failure fail;
    lab_strvec envp = LAB_STRVEC_INIT;
    lab_strvec paths = LAB_STRVEC_INIT;
    int out_pipe[2] = { -1, -1 };
    int err_pipe[2] = { -1, -1 };
    int report_pipe[2] = { -1, -1 };
    int status_pipe[2] = { -1, -1 };
    int notify_pipe[2] = { -1, -1 };
    int go_channel[2] = { -1, -1 };
    int devnull = -1;
    sigset_t all;
    sigset_t old;
    const char *prog;
    pid_t pid;
    int fork_errno;
    int rc;

    if (p->run)
        return lab_err_set(err, LAB_EINVAL, "'%s' is already running", p->argv.v[0]);
    if (p->argv.n == 0)
        return lab_err_set(err, LAB_EINVAL, "no program to run");
    prog = p->argv.v[0];
    if (p->report_fd >= 0 && p->report_fd < 3)
        return lab_err_set(err, LAB_EINVAL, "report fd %d of '%s' would replace stdio",
                           p->report_fd, prog);
    if (p->npass > LAB_PROC_PASS_MAX)
        return lab_err_set(err, LAB_EINVAL, "%zu descriptors for '%s', at most %d", p->npass, prog,
                           LAB_PROC_PASS_MAX);
    reset_results(p);

    if ((rc = build_env(&p->env, p->env_only, &envp)) < 0 ||
        (rc = build_paths(prog, envp.v, &paths)) < 0) {
        rc = lab_err_set(err, rc, "cannot prepare to run '%s': %s", prog, lab_strerror(rc));
        goto out;
    }
    if ((devnull = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0) {
        rc = lab_err_set(err, LAB_ECHILD, "cannot open '/dev/null' for '%s': %s", prog,
                         strerror(errno));
        goto out;
    }
    if ((rc = open_pipe(out_pipe, true, prog, err)) < 0 ||
        (rc = open_pipe(err_pipe, true, prog, err)) < 0 ||
        (p->report_fd >= 3 && (rc = open_pipe(report_pipe, true, prog, err)) < 0) ||
        (p->status_pipe && (rc = open_pipe(status_pipe, true, prog, err)) < 0) ||
        (rc = open_pipe(notify_pipe, false, prog, err)) < 0 ||
        (p->wait_go && (rc = open_go_channel(go_channel, prog, err)) < 0))
        goto out;
    if (!(run = calloc(1, sizeof(*run))) || !(run->slot = live_claim())) {
        rc = lab_err_set(err, LAB_ENOMEM, "cannot run '%s': %s", prog, lab_strerror(LAB_ENOMEM));
        goto out;
    }
    run->pidfd = -1;
    run->go_w = -1;

    cp = (struct child_plan){
        .argv = p->argv.v,
        .envp = envp.v ? envp.v : no_strings,
        .paths = paths.v,
        .dir = p->dir,
        .in_r = p->wait_go ? go_channel[0] : devnull,
        .out_w = out_pipe[1],
        .err_w = err_pipe[1],
        .report_w = report_pipe[1],
        .report_fd = p->report_fd,
        .status_w = status_pipe[1],
        .npass = p->npass,
        .notify_w = notify_pipe[1],
        .maxfd = fallback_maxfd(),
        .limits = p->limits,
        .parent = p->die_with_parent ? getpid() : 0,
    };
    memcpy(cp.pass, p->pass_fd, sizeof(cp.pass));
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    run->start = lab_clock_now();
    pid = fork();
    fork_errno = errno;
    if (pid == 0)
        child_run(&cp);
    if (pid > 0) {
        /* both sides set the group, so neither a kill nor the exec can race it */
        setpgid(pid, pid);
        atomic_store(&run->slot->pgid, pid);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (pid < 0) {
        rc =
            lab_err_set(err, LAB_ECHILD, "cannot fork to run '%s': %s", prog, strerror(fork_errno));
        goto out;
    }
    p->pid = pid;

    close_fd(&devnull);
    close_fd(&go_channel[0]);
    close_fd(&out_pipe[1]);
    close_fd(&err_pipe[1]);
    close_fd(&report_pipe[1]);
    close_fd(&status_pipe[1]);
    close_fd(&notify_pipe[1]);
    if (read_notify(notify_pipe[0], &fail) > 0) {
        int status;

        wait_retry(pid, &status);
        p->pid = 0;
        rc = report_failure(p, &fail, err);
        goto out;
    }

    run->fd[0] = out_pipe[0];
    run->fd[1] = err_pipe[0];
    run->fd[2] = report_pipe[0];
    run->fd[3] = status_pipe[0];
    run->go_w = go_channel[1];
    out_pipe[0] = err_pipe[0] = report_pipe[0] = status_pipe[0] = go_channel[1] = -1;
    run->pidfd = pidfd_open(pid, 0); /* -1 on old kernels: finish then ticks */
    p->run = run;
    run = NULL;
    rc = 0;
out:
    if (run) {
        live_release(&run->slot);
        free(run);
    }
    close_fd(&devnull);
    for (int i = 0; i < 2; i++) {
        close_fd(&go_channel[i]);
        close_fd(&out_pipe[i]);
        close_fd(&err_pipe[i]);
        close_fd(&report_pipe[i]);
        close_fd(&status_pipe[i]);
        close_fd(&notify_pipe[i]);
    }
    lab_strvec_release(&envp);
    lab_strvec_release(&paths);
    return rc;
}

/* Has the child exited?  It stays a zombie (WNOWAIT), keeping its pgid taken. */
static bool
child_gone(pid_t pid, int *wait_errno)
{
    siginfo_t si;

    memset(&si, 0, sizeof(si));
    while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0) {
        if (errno != EINTR) {
            *wait_errno = errno; /* ECHILD: reaped behind our back (SIGCHLD ignored) */
            return true;
        }
    }
    return si.si_pid == pid;
}

static void
signal_group(pid_t pgid, int sig)
{
    kill(-pgid, sig);
    /* a stopped child would hold a SIGTERM pending forever */
    if (sig == SIGTERM)
        kill(-pgid, SIGCONT);
}

static void
wake_at(double *wake, double t)
{
    if (t < *wake)
        *wake = t;
}

static int
poll_ms(double now, double wake)
{
    double ms = (wake - now) * 1000.0;

    if (wake == HUGE_VAL)
        return -1;
    if (ms <= 0)
        return 0;
    return ms > 60000 ? 60000 : (int)ms + 1;
}

/* Read once from a ready pipe; keep up to cap bytes in b, count the rest. */
static int
read_capped(int *fd, lab_buf *b, size_t *dropped, size_t cap, bool *got_data)
{
    char chunk[READ_CHUNK];
    ssize_t n = read(*fd, chunk, sizeof(chunk));
    size_t keep;

    if (n < 0) {
        if (errno == EINTR || errno == EAGAIN)
            return 0;
        n = -errno;
        close_fd(fd);
        return (int)n;
    }
    if (n == 0) {
        close_fd(fd);
        return 0;
    }
    *got_data = true;
    keep = b->len < cap ? cap - b->len : 0;
    if (keep > (size_t)n)
        keep = (size_t)n;
    if (keep && lab_buf_add(b, chunk, keep) < 0) {
        *dropped += (size_t)n;
        return LAB_ENOMEM;
    }
    *dropped += (size_t)n - keep;
    return 0;
}

/* Clear the slot, reap the child and fill the results; the group is already dead. */
static int
reap(lab_proc *p, int wait_errno, lab_err *err)
{
    struct lab_proc__run *run = p->run;
    int status;
    int rc = 0;

    for (int i = 0; i < NSTREAMS; i++)
        close_fd(&run->fd[i]);
    close_fd(&run->go_w);
    close_fd(&run->pidfd);
    live_release(&run->slot);
    if (!wait_errno && wait_retry(p->pid, &status) < 0)
        wait_errno = errno;
    p->elapsed_s = lab_clock_now() - run->start;
    if (wait_errno) {
        rc = lab_err_set(err, LAB_ECHILD, "cannot wait for '%s': %s", p->argv.v[0],
                         strerror(wait_errno));
    } else if (WIFEXITED(status)) {
        p->exited = true;
        p->exit_code = WEXITSTATUS(status);
        p->status = p->exit_code;
    } else if (WIFSIGNALED(status)) {
        p->term_signal = WTERMSIG(status);
        p->status = 128 + p->term_signal;
    }
    free(run);
    p->run = NULL;
    return rc;
}

/* The caller's report_done, once. */
static void
report_done(lab_proc *p)
{
    void (*done)(void *) = p->report_done;

    p->report_done = NULL;
    if (done)
        done(p->report_done_ctx);
}

int
lab_proc_finish(lab_proc *p, lab_err *err)
{
    struct lab_proc__run *run = p->run;
    size_t status_dropped = 0;
    lab_buf *bufs[NSTREAMS] = { &p->out, &p->errout, &p->report, &p->status_text };
    size_t *dropped[NSTREAMS] = { &p->out_dropped, &p->err_dropped, &p->report_dropped,
                                  &status_dropped };
    size_t cap = p->output_cap ? p->output_cap : LAB_PROC_DEFAULT_CAP;
    double grace = p->grace_s > 0 ? p->grace_s : 1.0;
    double deadline = HUGE_VAL;
    double term_at = 0;
    double gone_at = 0;
    double last_data = 0;
    bool killing = false;
    bool killed = false;
    bool gone = false;
    int wait_errno = 0;
    int io_rc = 0;
    int rc;

    if (!run)
        return lab_err_set(err, LAB_EINVAL, "no started child to finish");
    close_fd(&run->go_w); /* a child still waiting for a go that never came reads its end */
    if (p->timeout_s > 0)
        deadline = run->start + p->timeout_s;

    for (;;) {
        struct pollfd pfd[NSTREAMS + 1];
        int which[NSTREAMS + 1];
        nfds_t n = 0;
        double wake = HUGE_VAL;
        double now = lab_clock_now();
        bool got_data = false;

        if (!gone && (gone = child_gone(p->pid, &wait_errno))) {
            /* grandchildren must not keep the pipes, or the lab, waiting */
            kill(-p->pid, SIGKILL);
            gone_at = last_data = now;
        }
        if (gone) {
            bool open = false;

            for (int i = 0; i < NSTREAMS; i++)
                open = open || run->fd[i] >= 0;

            if (!open || now >= gone_at + DRAIN_MAX_S || now >= last_data + DRAIN_IDLE_S)
                break;
            wake_at(&wake, gone_at + DRAIN_MAX_S);
            wake_at(&wake, last_data + DRAIN_IDLE_S);
        } else if (!killing) {
            if (p->cancel && *p->cancel)
                p->cancelled = true;
            else if (now >= deadline)
                p->timed_out = true;
            else if (p->output_limit &&
                     p->out.len + p->out_dropped + p->errout.len + p->err_dropped > p->output_limit)
                p->flooded = true;
            if (p->cancelled || p->timed_out || p->flooded) {
                signal_group(p->pid, SIGTERM);
                killing = true;
                term_at = now;
                continue; /* it may be gone already */
            }
            wake_at(&wake, deadline);
            if (p->cancel)
                wake_at(&wake, now + CANCEL_TICK_S);
        } else if (!killed) {
            if (now >= term_at + grace) {
                signal_group(p->pid, SIGKILL);
                killed = true;
            } else {
                wake_at(&wake, term_at + grace);
            }
        }
        if (!gone && run->pidfd < 0)
            wake_at(&wake, now + NOPIDFD_TICK_S);

        for (int i = 0; i < NSTREAMS; i++) {
            if (run->fd[i] < 0)
                continue;
            pfd[n] = (struct pollfd){ .fd = run->fd[i], .events = POLLIN };
            which[n++] = i;
        }
        if (!gone && run->pidfd >= 0) {
            pfd[n] = (struct pollfd){ .fd = run->pidfd, .events = POLLIN };
            which[n++] = -1;
        }
        if (poll(pfd, n, poll_ms(now, wake)) < 0) {
            if (errno == EINTR)
                continue;
            rc = lab_err_set(err, LAB_EIO, "cannot watch '%s': %s", p->argv.v[0], strerror(errno));
            kill(-p->pid, SIGKILL);
            reap(p, wait_errno, NULL);
            return rc;
        }
        for (nfds_t k = 0; k < n; k++) {
            int i = which[k];

            if (i < 0 || !(pfd[k].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            rc = read_capped(&run->fd[i], bufs[i], dropped[i], cap, &got_data);
            if (rc < 0 && !io_rc)
                io_rc = rc;
            if (i == 2 && run->fd[2] < 0)
                report_done(p);
        }
        if (got_data)
            last_data = lab_clock_now();
    }

    report_done(p); /* given up on, if it had not ended */
    if ((rc = reap(p, wait_errno, err)) < 0)
        return rc;
    if (io_rc == LAB_ENOMEM)
        return lab_err_set(err, LAB_ENOMEM, "cannot keep the output of '%s': %s", p->argv.v[0],
                           lab_strerror(LAB_ENOMEM));
    if (io_rc < 0)
        return lab_err_set(err, LAB_EIO, "cannot read the output of '%s': %s", p->argv.v[0],
                           strerror(-io_rc));
    return 0;
}

int
lab_proc_run(lab_proc *p, lab_err *err)
{
    int rc;

    if ((rc = lab_proc_start(p, err)) < 0)
        return rc;
    return lab_proc_finish(p, err);
}

void
lab_proc_go(lab_proc *p)
{
    struct lab_proc__run *run = p->run;

    if (!run || run->go_w < 0)
        return;
    /* a full or closed channel (the child is gone) is no error: finish tells how it ended */
    while (send(run->go_w, "g", 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0 && errno == EINTR)
        ;
    close_fd(&run->go_w);
    run->start = lab_clock_now();
}

int
lab_proc_send(lab_proc *p, const void *data, size_t len, lab_err *err)
{
    struct lab_proc__run *run = p->run;
    const char *at = data;

    if (!run || run->go_w < 0)
        return lab_err_set(err, LAB_EINVAL, "no channel to the child's stdin");
    while (len) {
        ssize_t n = send(run->go_w, at, len, MSG_NOSIGNAL);

        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return lab_err_set(err, LAB_ECHILD, "cannot write to the child's stdin: %s",
                               strerror(errno));
        at += n;
        len -= (size_t)n;
    }
    return 0;
}

bool
lab_proc_ended(const lab_proc *p)
{
    int ignored = 0;

    return !p->run || p->pid <= 0 || child_gone(p->pid, &ignored);
}

void
lab_proc_kill(lab_proc *p)
{
    if (p->run && p->pid > 0)
        kill(-p->pid, SIGKILL);
}

void
lab_proc_release(lab_proc *p)
{
    if (p->run) {
        /* started, never finished: leave neither an orphan nor a zombie */
        kill(-p->pid, SIGKILL);
        reap(p, 0, NULL);
    }
    lab_strvec_release(&p->argv);
    lab_strvec_release(&p->env);
    lab_buf_release(&p->out);
    lab_buf_release(&p->errout);
    lab_buf_release(&p->report);
    lab_buf_release(&p->status_text);
}

const char *
lab_proc_describe(const lab_proc *p, char *buf, size_t size)
{
    const char *name;

    /* a short buf truncates the description, which is all a caller can want */
    if (p->timed_out) {
        snprintf(buf, size, "timed out after %.1f s", p->timeout_s);
    } else if (p->cancelled) {
        snprintf(buf, size, "cancelled after %.1f s", p->elapsed_s);
    } else if (p->flooded) {
        snprintf(buf, size, "stopped after %zu bytes of output",
                 p->out.len + p->out_dropped + p->errout.len + p->err_dropped);
    } else if (p->exited) {
        snprintf(buf, size, "exited with status %d", p->exit_code);
    } else if (p->term_signal) {
        name = sigdescr_np(p->term_signal);
        snprintf(buf, size, "killed by signal %d (%s)", p->term_signal,
                 name ? name : "unknown signal");
    } else {
        snprintf(buf, size, "%s", p->run ? "still running" : "not run");
    }
    return buf;
}
