/*
 * ptxas.h - ptxas's account (-v) of a PTX file: the text lab/build/resusage.h
 * reads (registers, barriers, stack, static shared memory of each function).
 *
 * nvcc compiles the PTX to a cubin for one architecture with -Xptxas -v, in a
 * folder of the caller's; the cubin is thrown away, the messages kept.  Used by
 * `cudalab inspect` (the student's file) and by the grader (the lab's
 * occupancy kernels, when no GPU can say what they use).
 */
#ifndef LAB_BUILD_PTXAS_H
#define LAB_BUILD_PTXAS_H

#include <signal.h>
#include <stdbool.h>

#include "lab/build/toolchain.h"
#include "lab/util/buf.h"
#include "lab/util/err.h"

typedef struct lab_ptxas_request {
    const char *dir; /* where nvcc runs: writable; the PTX file is in it */
    const char *ptx; /* the PTX file's name relative to dir: nvcc's steps run through a shell */
    const char *arch;
    bool rdc; /* device-side launches stay unresolved until the device runtime is linked */
    double timeout_s;
    const volatile sig_atomic_t *cancel;
} lab_ptxas_request;

/* Appends ptxas's messages to out.  LAB_ECANCEL when cancelled, LAB_ETOOL when nvcc fails. */
int lab_ptxas_log(const lab_toolchain *tc, const lab_ptxas_request *req, lab_buf *out,
                  lab_err *err);

#endif
