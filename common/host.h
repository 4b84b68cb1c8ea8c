/*
 * host.h - running a student's host function (a host-code exercise) in a
 * process of its own, which holds nothing of the driver's.
 *
 * The lab builds the student's file into a shared object (toolchain, req->host).
 * The driver never loads it: lab_host_run forks, and the child execs the driver
 * program afresh ("cudalab-driver host-call FAMILY SYMBOL...", main.c), which
 * loads the object, finds the function and calls the family's host_call hook
 * with it.  So the student's code runs in a process image of its own: none of
 * the driver's memory (the expected answers, the seed, the report), none of its
 * descriptors but the object's and the shared memory's (which it closes before
 * the call), none of its arguments on its command line (the lab passes those by
 * a descriptor too: common/driver.h, --args-fd).  Before the exec the child
 * takes the host-code row of the sandbox's limits (lab/platform/limits.def), its
 * own process group, and, when the driver is root, drops to nobody.  Its
 * results travel back through memory shared with the parent (a memfd:
 * lab_host_shared_alloc), which the parent checks.  An object named
 * "/proc/self/fd/N" (the reference's, which the lab passes open) is reached
 * through that descriptor in its own child alone: the student's child never
 * has it.  A crash, a missing function or a run past the timeout is the
 * outcome's, not the driver's.
 *
 * Call order: lab_host_shared_alloc; fill the inputs; lab_host_run (any number
 * of times); read the outputs; lab_host_shared_free.
 */
#ifndef LAB_HARNESS_HOST_H
#define LAB_HARNESS_HOST_H

#include <stdbool.h>
#include <stddef.h>

#include "lab/util/err.h"

/* The driver program's first argument that runs a host call (main.c). */
#define LAB_HOST_CALL_PROGRAM "host-call"

typedef enum lab_host_status {
    LAB_HOST_OK,
    LAB_HOST_NO_FUNCTION, /* the object does not load, or defines none of the symbols */
    LAB_HOST_CRASHED,     /* killed by a signal or exited on its own */
    LAB_HOST_TIMEOUT,
    LAB_HOST_STATUS_COUNT
} lab_host_status;

/* A family's call of the student's function, in the child: writes its results into shared. */
typedef void (*lab_host_call_fn)(void *function, void *shared);

typedef struct lab_host_call {
    const char *program;        /* the family, whose host_call the child runs */
    const char *object;         /* the shared object */
    const char *const *symbols; /* tried in order (the mangled name, then the plain one) */
    size_t nsymbols;
    void *shared; /* from lab_host_shared_alloc */
    double timeout_s;
} lab_host_call;

typedef struct lab_host_outcome {
    lab_host_status status;
    char detail[512]; /* one line for every status but OK */
} lab_host_outcome;

/* Memory the child's writes reach the parent through; zero-filled.  NULL on failure. */
void *lab_host_shared_alloc(size_t bytes, lab_err *err);
void lab_host_shared_free(void *p, size_t bytes);
/* 0 with *out filled whatever the student's function did; <0 when no child could be made or
 * started (the lab's failure). */
int lab_host_run(const lab_host_call *c, lab_host_outcome *out, lab_err *err);
/* The exec'd child's whole life (main.c, "cudalab-driver host-call FAMILY SYMBOL..."): argv[0]
 * is the family, the rest the symbols; call is the family's host_call.  Never returns. */
_Noreturn void lab_host_child_main(lab_host_call_fn call, int argc, char **argv);

#endif
