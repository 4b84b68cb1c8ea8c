/*
 * doctor.h - can this machine grade?  The checks behind `cudalab doctor`.
 *
 * Each check fills one lab_check: what it found and, when not ok, the fix in
 * one line.  Call order: lab_doctor_init, lab_doctor_run, read, lab_doctor_release.  Checks: the
 * catalog loads; the progress store opens and passes SQLite's quick_check; the lab's drivers are
 * installed; nvcc is found (and its version); the NVIDIA driver library and its CUDA version
 * against the toolkit's; a GPU is visible (through the driver program's device-probe: the lab never
 * loads libcuda itself); the simulator is available (a capability the drivers report; today's
 * builds have none); Nsight Compute and whether its counters are permitted; compute-sanitizer;
 * bubblewrap can make a sandbox.
 *
 * The outcome, lab_doctor.can: LAB_CAN_GPU when the lab can grade on the
 * GPU, LAB_CAN_SIM when only on the simulator, LAB_CAN_NOTHING otherwise.
 * `l` may be NULL when lab_open failed (why in open_error): the checks that
 * need it then fail with that reason.
 */
#ifndef LAB_INSTRUMENTS_DOCTOR_H
#define LAB_INSTRUMENTS_DOCTOR_H

#include <stddef.h>

#include "lab/util/buf.h"
#include "lab/grade/lab.h"

typedef enum lab_check_state {
    LAB_CHECK_OK,
    LAB_CHECK_WARN, /* works, or only an optional part is missing */
    LAB_CHECK_FAIL,
} lab_check_state;

typedef struct lab_check {
    const char *name; /* "nvcc", "GPU", ... */
    lab_check_state state;
    lab_buf found; /* what the check saw, one line */
    lab_buf fix;   /* what to do, one line; empty when ok */
} lab_check;

typedef enum lab_capability {
    LAB_CAN_GPU = 0,
    LAB_CAN_SIM = 1,
    LAB_CAN_NOTHING = 2,
} lab_capability;

#define LAB_DOCTOR_MAX_CHECKS 16

typedef struct lab_doctor {
    lab_check checks[LAB_DOCTOR_MAX_CHECKS];
    size_t nchecks;
    lab_capability can;
    bool can_build;        /* catalog, store, drivers and nvcc work: kernels compile and check */
    char nvcc_version[32]; /* "13.0.88", "" when not found */
    lab_device gpu;        /* the cuda probe */
} lab_doctor;

void lab_doctor_init(lab_doctor *d);
void lab_doctor_release(lab_doctor *d);
/* Runs every check in order into d (initialised); on_check (may be NULL) is told each
 * check's name before it runs. */
void lab_doctor_run(lab *l, const char *open_error, lab_doctor *d,
                    void (*on_check)(const char *name, void *arg), void *arg);

#endif
