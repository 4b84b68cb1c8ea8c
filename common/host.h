/*
 * host.h - running a student's host function (a host-code exercise) in a
 * child process of its own.
 *
 * The lab builds the student's file into a shared object (toolchain, req->host).
 * The driver never loads it: lab_host_run forks, and only the child dlopens
 * the object, finds the function and calls it.  The child closes every
 * descriptor above stderr first, so the student's code cannot reach the
 * report pipe; its results travel back through memory shared with the parent
 * (lab_host_shared_alloc), which the parent checks.  An object named
 * "/proc/self/fd/N" (the reference's, which the lab passes open) is kept open in
 * its own child alone: the student's child closes it with the rest, and finds
 * the reference at no path.  A crash, a missing
 * function or a run past the timeout is the outcome's, not the driver's.
 *
 * Call order: lab_host_shared_alloc; fill the inputs; lab_host_run (any number
 * of times); read the outputs; lab_host_shared_free.
 */
#ifndef LAB_HARNESS_HOST_H
#define LAB_HARNESS_HOST_H

#include <stdbool.h>
#include <stddef.h>

#include "lab/util/err.h"

typedef enum lab_host_status {
    LAB_HOST_OK,
    LAB_HOST_NO_FUNCTION, /* the object does not load, or defines none of the symbols */
    LAB_HOST_CRASHED,     /* killed by a signal or exited on its own */
    LAB_HOST_TIMEOUT,
    LAB_HOST_STATUS_COUNT
} lab_host_status;

typedef struct lab_host_call {
    const char *object;         /* the shared object */
    const char *const *symbols; /* tried in order (the mangled name, then the plain one) */
    size_t nsymbols;
    /* Runs in the child with the function found; writes its results into shared. */
    void (*run)(void *function, void *shared);
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
/* 0 with *out filled whatever the student's function did; <0 when no child could be made. */
int lab_host_run(const lab_host_call *c, lab_host_outcome *out, lab_err *err);

#endif
