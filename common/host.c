/*
 * host.c - a host function in a child process of its own (see host.h).
 */
#include "common/host.h"
#include "lab/util/clock.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The child's side of the conversation, in memory shared with the parent. */
typedef struct child_note {
    int returned; /* the function came back */
    char message[512];
} child_note;

#define EXIT_NO_FUNCTION 97
#define NOBODY 65534               /* the user a child of root's runs the student's code as */
#define POLL_NS 200000L            /* 0.2 ms between looks at the child */
#define ADDRESS_SPACE (16UL << 30) /* a flood of memory ends in a crash, not in swap */

void *
lab_host_shared_alloc(size_t bytes, lab_err *err)
{
    void *p =
        mmap(NULL, bytes ? bytes : 1, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

    if (p == MAP_FAILED) {
        lab_err_set(err, LAB_ENOMEM, "cannot map %zu shared bytes: %s", bytes, strerror(errno));
        return NULL;
    }
    return p;
}

void
lab_host_shared_free(void *p, size_t bytes)
{
    if (p)
        munmap(p, bytes ? bytes : 1);
}

/* The object opened, then root's rights dropped (a child of root's runs the student's code as
 * nobody, which can neither open the driver's descriptors through /proc nor signal it): the path
 * dlopen gets, "/proc/self/fd/N" for root, or NULL with note->message saying why. */
static const char *
open_object(const char *object, char *path, size_t size, child_note *note)
{
    int fd;

    if (geteuid() != 0)
        return object; /* the driver is non-dumpable: its /proc/PID/fd is out of reach */
    if ((fd = open(object, O_RDONLY)) < 0) {
        snprintf(note->message, sizeof(note->message), "cannot open the compiled file: %s",
                 strerror(errno));
        return NULL;
    }
    if (setgroups(0, NULL) < 0 || setgid(NOBODY) < 0 || setuid(NOBODY) < 0 || getuid() == 0) {
        snprintf(note->message, sizeof(note->message),
                 "the lab cannot drop root's rights to run the student's code: %s",
                 strerror(errno));
        return NULL;
    }
    snprintf(path, size, "/proc/self/fd/%d", fd);
    return path;
}

/* An object the lab passed open ("/proc/self/fd/N": the reference's, which the student's code
 * must not reach) is moved to an fd below 3's close_range (stdin's, which the call never reads);
 * path becomes its new name, or stays "" for an object given by path. */
static void
keep_passed_object(const char *object, char *path, size_t size)
{
    int fd;
    char end;

    *path = '\0';
    if (sscanf(object, "/proc/self/fd/%d%c", &fd, &end) != 1 || fd < 3 || dup2(fd, 0) < 0)
        return;
    snprintf(path, size, "/proc/self/fd/0");
}

/* In the child: never returns. */
static void
child(const lab_host_call *c, child_note *note)
{
    struct rlimit as = { ADDRESS_SPACE, ADDRESS_SPACE };
    void *handle, *fn = NULL;
    char fd_path[64];
    const char *object;

    static const int faults[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };

    /* the driver's (or a sanitizer's) handlers are not the student's: a fault kills */
    for (size_t i = 0; i < ARRAY_SIZE(faults); i++)
        signal(faults[i], SIG_DFL);
    keep_passed_object(c->object, fd_path, sizeof(fd_path));
    close_range(3, ~0U, 0);  /* the report pipe and the passed objects among them */
#ifndef __SANITIZE_ADDRESS__ /* ASan's shadow memory alone is terabytes of address space */
    setrlimit(RLIMIT_AS, &as);
#else
    (void)as;
#endif
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    if (!(object = open_object(*fd_path ? fd_path : c->object, fd_path, sizeof(fd_path), note)))
        _exit(EXIT_NO_FUNCTION);
    if (!(handle = dlopen(object, RTLD_NOW | RTLD_LOCAL))) {
        snprintf(note->message, sizeof(note->message), "cannot load the compiled file: %s",
                 dlerror());
        _exit(EXIT_NO_FUNCTION);
    }
    for (size_t i = 0; i < c->nsymbols && !fn; i++)
        fn = dlsym(handle, c->symbols[i]);
    if (!fn) {
        snprintf(note->message, sizeof(note->message),
                 "defines no function %s with this exercise's parameters",
                 c->symbols[c->nsymbols - 1]);
        _exit(EXIT_NO_FUNCTION);
    }
    c->run(fn, c->shared);
    note->returned = 1;
    _exit(0);
}

static int
wait_for(pid_t pid, double timeout_s, int *status, bool *timed_out)
{
    const double deadline = lab_clock_now() + timeout_s;
    const struct timespec pause = { 0, POLL_NS };
    pid_t got;

    *timed_out = false;
    while ((got = waitpid(pid, status, WNOHANG)) == 0) {
        if (lab_clock_now() > deadline) {
            *timed_out = true;
            kill(pid, SIGKILL);
            got = waitpid(pid, status, 0);
            break;
        }
        nanosleep(&pause, NULL);
    }
    return got == pid ? 0 : -1;
}

int
lab_host_run(const lab_host_call *c, lab_host_outcome *out, lab_err *err)
{
    child_note *note;
    bool timed_out;
    int status = 0;
    pid_t pid;

    memset(out, 0, sizeof(*out));
    if (!(note = lab_host_shared_alloc(sizeof(*note), err)))
        return err->code;
    fflush(NULL);
    if ((pid = fork()) < 0) {
        lab_host_shared_free(note, sizeof(*note));
        return lab_err_set(err, LAB_ECHILD, "cannot fork: %s", strerror(errno));
    }
    if (pid == 0)
        child(c, note);
    if (wait_for(pid, c->timeout_s, &status, &timed_out) < 0) {
        lab_host_shared_free(note, sizeof(*note));
        return lab_err_set(err, LAB_ECHILD, "cannot wait for the child: %s", strerror(errno));
    }
    if (timed_out) {
        out->status = LAB_HOST_TIMEOUT;
        snprintf(out->detail, sizeof(out->detail), "did not return within %.0f s", c->timeout_s);
    } else if (WIFSIGNALED(status)) {
        out->status = LAB_HOST_CRASHED;
        snprintf(out->detail, sizeof(out->detail), "crashed: %s", strsignal(WTERMSIG(status)));
    } else if (WEXITSTATUS(status) == EXIT_NO_FUNCTION) {
        out->status = LAB_HOST_NO_FUNCTION;
        snprintf(out->detail, sizeof(out->detail), "%s", note->message);
    } else if (WEXITSTATUS(status) != 0 || !note->returned) {
        out->status = LAB_HOST_CRASHED;
        snprintf(out->detail, sizeof(out->detail),
                 "ended the process (exit status %d) instead of returning", WEXITSTATUS(status));
    }
    lab_host_shared_free(note, sizeof(*note));
    return 0;
}
