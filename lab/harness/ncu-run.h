/*
 * ncu-run.h - a demo driver's few Nsight Compute numbers (`cudalab profile`,
 * lab/instruments/profile, owns profiling proper).
 *
 * lab_ncurun_exec runs `ncu --csv --page raw --metrics M,... --kernel-name
 * regex:R DRIVER ARGS...` (the demo driver again, told to only launch its
 * kernels once each), reads the CSV with lab/instruments/ncu and keeps one row per
 * profiled launch, in launch order, one value per metric asked for.  Nothing
 * here is fatal to a demo: when ncu is not on PATH, fails, may not read the
 * counters or prints nothing usable, out->status says why and the demo's
 * table shows it.
 */
#ifndef LAB_HARNESS_NCU_RUN_H
#define LAB_HARNESS_NCU_RUN_H

#include <stddef.h>

#define LAB_NCURUN_MAX_LAUNCHES 32
#define LAB_NCURUN_MAX_METRICS 4
#define LAB_NCURUN_TIMEOUT_S 300

typedef struct lab_ncurun {
    size_t nlaunches;
    char kernel[LAB_NCURUN_MAX_LAUNCHES][64];                      /* "mathKernel1" */
    double value[LAB_NCURUN_MAX_LAUNCHES][LAB_NCURUN_MAX_METRICS]; /* NAN when absent */
    char status[256]; /* "" when measured, else why not ("ncu not found", ...) */
} lab_ncurun;

/* Runs ncu on argv (the program and its arguments, NULL-terminated). */
void lab_ncurun_exec(const char *const *argv, const char *kernel_regex, const char *const *metrics,
                     size_t nmetrics, lab_ncurun *out);

#endif
