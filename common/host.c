/*
 * host.c - a host function in a process of its own (see host.h).
 *
 * The parent (lab_host_run) opens the object, makes the note the child answers in, forks; the
 * child puts the object, the shared area and the note on descriptors 3, 4 and 5, closes every
 * other, takes the host-code limits and its own process group, drops root's rights and execs
 * the driver program as "host-call" (an exec failure comes back on a close-on-exec pipe: the
 * lab's failure, not the student's).  The new image (lab_host_child_main) maps the area and the
 * note, loads the object through its descriptor, closes all three and calls the family's hook.
 */
#include "common/host.h"
#include "lab/util/clock.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The child's side of the conversation, in memory shared with the parent. */
typedef struct child_note {
    int returned; /* the function came back */
    char message[512];
} child_note;

/* Before each shared area, a page of the parent's alone: the child maps only what follows. */
typedef struct area_header {
    int fd; /* the memfd behind the area */
} area_header;

#define AREA_HEADER 4096
#define OBJECT_FD 3 /* the child's descriptors, until it has used them */
#define AREA_FD 4
#define NOTE_FD 5
#define EXIT_NO_FUNCTION 97
#define NOBODY 65534    /* the user a child of root's runs the student's code as */
#define POLL_NS 200000L /* 0.2 ms between looks at the child */

/* limits.def's host-code row: the one table of what untrusted code may spend (the other rows
 * are the sandbox's, lab/platform/sandbox.c). */
#define LIMITS_COMPILE(...)
#define LIMITS_DRIVER(...)
#define LIMITS_HOST(LABEL, CPU, AS, FSIZE, NPROC, NOFILE, TMPFS, GPU)                              \
    { RLIMIT_CPU, CPU }, { RLIMIT_AS, AS }, { RLIMIT_FSIZE, FSIZE }, { RLIMIT_NPROC, NPROC },      \
        { RLIMIT_NOFILE, NOFILE },
static const struct {
    int resource;
    unsigned long long value; /* 0: none */
} host_limits[] = {
#define LAB_SANDBOX_JOB(KIND, ...) LIMITS_##KIND(__VA_ARGS__)
#include "lab/platform/limits.def"
#undef LAB_SANDBOX_JOB
};

void *
lab_host_shared_alloc(size_t bytes, lab_err *err)
{
    size_t total = AREA_HEADER + (bytes ? bytes : 1);
    int fd = memfd_create("cudalab-host-area", MFD_CLOEXEC);
    char *p = MAP_FAILED;

    if (fd >= 0 && ftruncate(fd, (off_t)total) == 0)
        p = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        lab_err_set(err, LAB_ENOMEM, "cannot map %zu shared bytes: %s", bytes, strerror(errno));
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    ((area_header *)p)->fd = fd;
    return p + AREA_HEADER;
}

void
lab_host_shared_free(void *p, size_t bytes)
{
    area_header *h;

    if (!p)
        return;
    h = (area_header *)((char *)p - AREA_HEADER);
    close(h->fd);
    munmap(h, AREA_HEADER + (bytes ? bytes : 1));
}

/* ---- in the forked child: async-signal-safe calls only, until the exec ---- */

static _Noreturn void
setup_failed(int notify_w)
{
    int e = errno;

    while (write(notify_w, &e, sizeof(e)) < 0 && errno == EINTR)
        ;
    _exit(127);
}

/* The host-code row's limits; a lower hard limit the driver runs under is kept. */
static int
take_limits(void)
{
    for (size_t i = 0; i < ARRAY_SIZE(host_limits); i++) {
        struct rlimit rl = { (rlim_t)host_limits[i].value, (rlim_t)host_limits[i].value }, now;

        if (!host_limits[i].value)
            continue;
#ifdef __SANITIZE_ADDRESS__ /* ASan's shadow memory alone is terabytes of address space */
        if (host_limits[i].resource == RLIMIT_AS)
            continue;
#endif
        if (getrlimit(host_limits[i].resource, &now) == 0 && now.rlim_max < rl.rlim_max)
            rl.rlim_cur = rl.rlim_max = now.rlim_max;
        if (setrlimit(host_limits[i].resource, &rl) < 0)
            return -1;
    }
    return 0;
}

static _Noreturn void
child(char *const *argv, const int fds[3], int notify_w)
{
    struct sigaction dfl = { .sa_handler = SIG_DFL };
    sigset_t none;
    int high[3], nw;

    setpgid(0, 0); /* a timeout kills what it started too */
    for (int sig = 1; sig < NSIG; sig++)
        sigaction(sig, &dfl, NULL); /* nothing of the driver's (or a sanitizer's) handlers */
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    /* the three descriptors to 3, 4 and 5, by way of fds above them (no dup2 lands on a source) */
    if ((nw = fcntl(notify_w, F_DUPFD_CLOEXEC, 16)) < 0)
        setup_failed(notify_w);
    for (int i = 0; i < 3; i++)
        if ((high[i] = fcntl(fds[i], F_DUPFD, 16)) < 0)
            setup_failed(nw);
    for (int i = 0; i < 3; i++)
        if (dup2(high[i], OBJECT_FD + i) < 0)
            setup_failed(nw);
    close_range(NOTE_FD + 1, (unsigned)nw - 1, 0); /* the report pipe among them */
    close_range((unsigned)nw + 1, ~0U, 0);
    if (take_limits() < 0)
        setup_failed(nw);
    if (geteuid() == 0 &&
        (setgroups(0, NULL) < 0 || setgid(NOBODY) < 0 || setuid(NOBODY) < 0 || getuid() == 0))
        setup_failed(nw);
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
        setup_failed(nw);
    execve("/proc/self/exe", argv, environ);
    setup_failed(nw);
}

/* ---- in the parent ---- */

/* The object's descriptor: the one the lab passed open ("/proc/self/fd/N", the reference's), or
 * the file opened now; -1 with errno set. */
static int
object_fd(const char *object, bool *opened)
{
    int fd;
    char end;

    *opened = false;
    if (sscanf(object, "/proc/self/fd/%d%c", &fd, &end) == 1 && fd >= 3)
        return fd;
    *opened = true;
    return open(object, O_RDONLY | O_CLOEXEC);
}

/* Waits for the child until timeout_s: it stays a zombie (WNOWAIT) while its process group,
 * which it may have filled, is killed, so that the group's id is not anyone else's yet. */
static int
wait_for(pid_t pid, double timeout_s, int *status, bool *timed_out)
{
    const double deadline = lab_clock_now() + timeout_s;
    const struct timespec pause = { 0, POLL_NS };
    siginfo_t si;

    *timed_out = false;
    for (;;) {
        memset(&si, 0, sizeof(si));
        if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0 && errno != EINTR)
            return -1;
        if (si.si_pid == pid)
            break;
        if (lab_clock_now() > deadline) {
            *timed_out = true;
            break;
        }
        nanosleep(&pause, NULL);
    }
    kill(-pid, SIGKILL); /* on a timeout the child, and in any case what it left in its group */
    while (waitpid(pid, status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return 0;
}

/* The exec'd child's argv: the driver program (its path: the student's process is found by it,
 * as the driver is), host-call, the family, the symbols.  self holds the path. */
static char **
child_argv(const lab_host_call *c, char *self, size_t size)
{
    char **v = calloc(c->nsymbols + 4, sizeof(*v));
    ssize_t len = readlink("/proc/self/exe", self, size - 1);
    size_t n = 0;

    if (!v)
        return NULL;
    self[len > 0 ? len : 0] = '\0';
    v[n++] = len > 0 ? self : (char *)"cudalab-driver";
    v[n++] = (char *)LAB_HOST_CALL_PROGRAM;
    v[n++] = (char *)c->program;
    for (size_t i = 0; i < c->nsymbols; i++)
        if (c->symbols[i] && *c->symbols[i])
            v[n++] = (char *)c->symbols[i];
    return v;
}

static void
describe(const child_note *note, int status, bool timed_out, double timeout_s,
         lab_host_outcome *out)
{
    if (timed_out) {
        out->status = LAB_HOST_TIMEOUT;
        snprintf(out->detail, sizeof(out->detail), "did not return within %.0f s", timeout_s);
    } else if (WIFSIGNALED(status)) {
        out->status = LAB_HOST_CRASHED;
        snprintf(out->detail, sizeof(out->detail), "crashed: %s", strsignal(WTERMSIG(status)));
    } else if (WEXITSTATUS(status) == EXIT_NO_FUNCTION) {
        out->status = LAB_HOST_NO_FUNCTION;
        snprintf(out->detail, sizeof(out->detail), "%.*s", (int)sizeof(note->message) - 1,
                 note->message);
    } else if (WEXITSTATUS(status) != 0 || !note->returned) {
        out->status = LAB_HOST_CRASHED;
        snprintf(out->detail, sizeof(out->detail),
                 "ended the process (exit status %d) instead of returning", WEXITSTATUS(status));
    }
}

int
lab_host_run(const lab_host_call *c, lab_host_outcome *out, lab_err *err)
{
    child_note *note = MAP_FAILED;
    char self[4096];
    char **argv = child_argv(c, self, sizeof(self));
    int fds[3] = { -1, ((area_header *)((char *)c->shared - AREA_HEADER))->fd, -1 };
    int notify[2] = { -1, -1 }, status = 0, child_errno = 0, rc = 0;
    bool opened = false, timed_out;
    ssize_t n;
    pid_t pid;

    memset(out, 0, sizeof(*out));
    if (!argv)
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    if ((fds[0] = object_fd(c->object, &opened)) < 0) {
        out->status = LAB_HOST_NO_FUNCTION;
        snprintf(out->detail, sizeof(out->detail), "cannot open the compiled file: %s",
                 strerror(errno));
        goto out;
    }
    if ((fds[2] = memfd_create("cudalab-host-note", MFD_CLOEXEC)) < 0 ||
        ftruncate(fds[2], sizeof(*note)) < 0 ||
        (note = mmap(NULL, sizeof(*note), PROT_READ | PROT_WRITE, MAP_SHARED, fds[2], 0)) ==
            MAP_FAILED ||
        pipe2(notify, O_CLOEXEC) < 0) {
        rc = lab_err_set(err, LAB_ENOMEM, "cannot set up the student's process: %s",
                         strerror(errno));
        goto out;
    }
    fflush(NULL);
    if ((pid = fork()) < 0) {
        rc = lab_err_set(err, LAB_ECHILD, "cannot fork: %s", strerror(errno));
        goto out;
    }
    if (pid == 0)
        child(argv, fds, notify[1]);
    close(notify[1]);
    notify[1] = -1;
    while ((n = read(notify[0], &child_errno, sizeof(child_errno))) < 0 && errno == EINTR)
        ;
    if (wait_for(pid, c->timeout_s, &status, &timed_out) < 0) {
        rc = lab_err_set(err, LAB_ECHILD, "cannot wait for the child: %s", strerror(errno));
        goto out;
    }
    if (n > 0) { /* it never became the student's process */
        rc = lab_err_set(err, LAB_ECHILD, "cannot start the process for the student's code: %s",
                         strerror(child_errno));
        goto out;
    }
    describe(note, status, timed_out, c->timeout_s, out);
out:
    if (opened && fds[0] >= 0)
        close(fds[0]);
    if (fds[2] >= 0)
        close(fds[2]);
    for (int i = 0; i < 2; i++)
        if (notify[i] >= 0)
            close(notify[i]);
    if (note != MAP_FAILED)
        munmap(note, sizeof(*note));
    free(argv);
    return rc;
}

/* ---- the exec'd child: the student's process ---- */

static _Noreturn void
no_function(child_note *note, const char *fmt, const char *what)
{
    snprintf(note->message, sizeof(note->message), fmt, what);
    _exit(EXIT_NO_FUNCTION);
}

_Noreturn void
lab_host_child_main(lab_host_call_fn call, int argc, char **argv)
{
    static const int faults[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
    child_note *note;
    void *area, *handle, *fn = NULL;
    struct stat st;

    /* a sanitizer's handlers (the test build) are not the student's: a fault kills */
    for (size_t i = 0; i < ARRAY_SIZE(faults); i++)
        signal(faults[i], SIG_DFL);
    if ((note = mmap(NULL, sizeof(*note), PROT_READ | PROT_WRITE, MAP_SHARED, NOTE_FD, 0)) ==
        MAP_FAILED)
        _exit(127);
    if (argc < 2 || !call)
        no_function(note, "%s", "the lab started the student's process wrongly");
    if (fstat(AREA_FD, &st) < 0 || st.st_size <= AREA_HEADER ||
        (area = mmap(NULL, (size_t)st.st_size - AREA_HEADER, PROT_READ | PROT_WRITE, MAP_SHARED,
                     AREA_FD, AREA_HEADER)) == MAP_FAILED)
        no_function(note, "cannot map the lab's data: %s", strerror(errno));
    handle = dlopen("/proc/self/fd/3", RTLD_NOW | RTLD_LOCAL);
    close(OBJECT_FD);
    close(AREA_FD);
    close(NOTE_FD);
    if (!handle)
        no_function(note, "cannot load the compiled file: %s", dlerror());
    for (int i = 1; i < argc && !fn; i++)
        fn = dlsym(handle, argv[i]);
    if (!fn)
        no_function(note, "defines no function %s with this exercise's parameters", argv[argc - 1]);
    call(fn, area);
    note->returned = 1;
    _exit(0);
}
