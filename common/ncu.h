/*
 * ncu.h - a demo driver's few Nsight Compute numbers (`cudalab profile`,
 * issue 9, owns profiling proper).
 *
 * lab_ncu_run runs `ncu --csv --print-units base --metrics M,...
 * --kernel-name regex:R DRIVER ARGS...` (the demo driver again, told to only
 * launch its kernels once each) and parses what ncu prints with
 * lab_ncu_parse: one row per profiled launch, in launch order, one value per
 * metric.  Nothing here is fatal to a demo: when ncu is not on PATH, fails or
 * prints nothing usable, out->status says why and the demo's table shows it.
 *
 * Call order: lab_ncu_init, lab_ncu_run (or lab_ncu_parse), read, done (no
 * allocations).
 */
#ifndef COMMON_NCU_H
#define COMMON_NCU_H

#include <stdbool.h>
#include <stddef.h>

#define LAB_NCU_MAX_LAUNCHES 32
#define LAB_NCU_MAX_METRICS 4
#define LAB_NCU_TIMEOUT_S 300

typedef struct lab_ncu {
    size_t nlaunches;
    char kernel[LAB_NCU_MAX_LAUNCHES][64];                   /* "mathKernel1" */
    double value[LAB_NCU_MAX_LAUNCHES][LAB_NCU_MAX_METRICS]; /* NAN when absent */
    char status[256]; /* "" when measured, else why not ("ncu not found", ...) */
} lab_ncu;

void lab_ncu_init(lab_ncu *n);
/* Fills n from ncu's CSV text; 0, or -1 with n->status set when it holds no metric rows. */
int lab_ncu_parse(const char *csv, const char *const *metrics, size_t nmetrics, lab_ncu *n);
/* Runs ncu on argv (the program and its arguments, NULL-terminated). */
void lab_ncu_run(const char *const *argv, const char *kernel_regex, const char *const *metrics,
                 size_t nmetrics, lab_ncu *n);

#endif
