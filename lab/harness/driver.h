/*
 * driver.h - what every exercise driver shares: its command line, the
 * device, the three roles' modules, the report, and how a failure is told.
 *
 * A driver is one C program per kernel signature family (lab/drivers/).  The
 * lab runs it as
 *   DRIVER --backend cuda|sim --report-fd 3 --lab-kernels lab-kernels.ptx
 *          --student S.cubin --baseline B.cubin|cpu --reference R.cubin --kernel NAME
 *          --baseline-kernel NAME --sizes 1,1000 --timing-sizes 1000 --block 512|40x2,8x4x2
 * --unroll 1
 *          [--output partials|total] [--grid-per-sm K] [--entry MANGLED]
 *          [--baseline-block N] [--baseline-unroll N] [--baseline-output partials|total]
 *          [--baseline-grid-per-sm K] [--baseline-entry MANGLED]
 *          [--seed N] [--min-samples 300] [--time-cap 4] [--choose-block] [--probe]
 * The student and the reference share one launch shape (block, unroll,
 * output, grid per SM); the baseline, the step before, has its own, which
 * defaults to theirs.  With --backend host the driver opens no device: the
 * modules are shared objects of host code (lab/harness/host.h).
 * and reads one JSON object (lab/harness/report.h) from fd 3.  Usage errors print
 * to stderr and exit 2 with no report; everything else ends in a report and
 * exit 0, whatever the student's kernel did.
 *
 * Call order in a driver's main():
 *   if (lab_driver_start(&d, argc, argv, "reduce-int", "PiS_j") == 0)
 *       ... family work: lab_driver_launch, checks, and at each timing size
 *           lab_driver_time_size (or lab_timing_run) ...
 *   return lab_driver_finish(&d);
 */
#ifndef LAB_HARNESS_DRIVER_H
#define LAB_HARNESS_DRIVER_H

#include <stdbool.h>
#include <stdint.h>

#include <cJSON.h>

#include "lab/harness/dev.h"
#include "lab/harness/timing.h"
#include "lab/util/buf.h"

typedef enum lab_role {
    LAB_ROLE_STUDENT,
    LAB_ROLE_BASELINE,
    LAB_ROLE_REFERENCE,
    LAB_ROLE_COUNT
} lab_role;

extern const char *const lab_role_names[LAB_ROLE_COUNT];

/* How a role's kernel is launched and what it leaves behind. */
typedef struct lab_shape {
    unsigned block;
    unsigned unroll;
    bool total;           /* adds the whole sum into out[0] instead of one sum per block */
    unsigned grid_per_sm; /* 0: the grid covers n; else a grid-stride loop over K blocks per SM */
    const char *entry;    /* the exact entry name (templates), or NULL */
} lab_shape;

typedef struct lab_driver_args {
    const char *backend;
    int report_fd;
    uint64_t seed;
    const char *module[LAB_ROLE_COUNT]; /* module path, or "cpu" for a host baseline */
    const char *kernel[LAB_ROLE_COUNT]; /* plain kernel names */
    unsigned long sizes[16];
    size_t nsizes;
    unsigned long timing_sizes[16];
    size_t ntiming_sizes;
    unsigned block;      /* the student's and reference's: shape[LAB_ROLE_STUDENT].block, */
                         /* the threads of their first block shape */
    lab_dim3 blocks[16]; /* --block 40x2,8x4x2,512: the shapes to check on (or to sweep) */
    size_t nblocks;
    unsigned unroll; /* likewise */
    lab_shape shape[LAB_ROLE_COUNT];
    const char *lab_kernels;
    lab_timing_opts timing;
    bool probe;
    bool choose_block; /* --choose-block: the student's module names its shape
                          (lab/harness/choose.h) */
} lab_driver_args;

typedef struct lab_driver {
    lab_driver_args args;
    const lab_dev_ops *ops;
    lab_dev *dev;
    lab_dev_info info;
    cJSON *report;
    cJSON *cases;   /* array in report */
    cJSON *timings; /* array in report */
    cJSON *metrics; /* "sim_metrics" array in report (simulator only), else NULL */
    lab_buf image[LAB_ROLE_COUNT];
    lab_module *module[LAB_ROLE_COUNT]; /* NULL for a cpu role */
    char mangled[LAB_ROLE_COUNT][256];
    lab_module *lab_kernels;
    lab_timing timing;
    double copy_gbps;
    bool failed;        /* status is no longer "ok" */
    bool student_wrong; /* a student case was wrong: timing it would grade nothing */
} lab_driver;

/* Parses, opens the device, loads the modules; 0 to go on, <0 when the report
 * already says why not (no_gpu, error) or on a usage error (exit 2). */
/* "40x2,8x4x2,512" into shapes (each 1..1024 threads); 0, or -1 when it is not such a list. */
int lab_driver_parse_shapes(const char *s, lab_dim3 *v, size_t max, size_t *n);

int lab_driver_start(lab_driver *d, int argc, char **argv, const char *family,
                     const char *mangle_suffix);
bool lab_driver_is_gpu_role(const lab_driver *d, lab_role role);
/* Running on the simulator: no timing (ntiming_sizes is 0), metrics and checks instead. */
bool lab_driver_is_sim(const lab_driver *d);
/* True with --backend host: no device, the modules are shared objects. */
bool lab_driver_is_host(const lab_driver *d);
int lab_driver_launch(lab_driver *d, lab_role role, lab_dim3 grid, lab_dim3 block, unsigned shared,
                      void **args, lab_err *err);
/* Appends the case object c ({size, role, correct, detail, ...}) to the report's cases.  On
 * the simulator it also records the launch's metrics under "sim_metrics" and, when a check
 * fired (race, out-of-bounds, divergent barrier...), makes the case wrong with the finding
 * as its detail.  Call it right after the launch whose result the case holds. */
void lab_driver_push_case(lab_driver *d, lab_role role, cJSON *c);
/* Marks the report "error": the role, the stage ("load", "launch", "run", "timing"),
 * the size, the device's own error code and err's message.  Returns err->code. */
int lab_driver_fail(lab_driver *d, lab_role role, const char *stage, unsigned long size,
                    const lab_err *err);
/* At a timing size: every GPU role timed interleaved (lab/harness/timing), the host baseline
 * timed when the baseline is "cpu", and the size's entry added to the report's "timings". */
typedef struct lab_size_timing {
    unsigned long n;
    double bytes; /* moved by one run, for GB/s */
    /* Untimed before each sample (may be NULL), then the timed launch; both get ctx[role]. */
    int (*prepare)(void *ctx, lab_err *err);
    int (*launch)(void *ctx, lab_err *err);
    void *ctx[LAB_ROLE_COUNT];
    /* The host baseline, one run; cpu_restore (may be NULL) runs untimed before each. */
    void (*cpu_restore)(void *cpu_ctx);
    void (*cpu)(void *cpu_ctx);
    void *cpu_ctx;
} lab_size_timing;

bool lab_driver_is_timing_size(const lab_driver *d, unsigned long n);
/* Returns <0 (and the report says why) when timing failed on the device. */
int lab_driver_time_size(lab_driver *d, const lab_size_timing *s, lab_err *err);

/* A family's step for one role (and block shape): a check, or the timed launch. */
typedef int (*lab_driver_role_fn)(void *ctx, lab_role role, lab_dim3 shape, lab_err *err);
/* Calls check for every block shape of --block and every GPU role (the student first: a
 * fault kills the context), until the report has failed. */
void lab_driver_check_shapes(lab_driver *d, lab_driver_role_fn check, void *ctx, lab_err *err);
/* lab_driver_time_size for families whose only per-role difference is the role: launch
 * gets ctx, the role and the first block shape. */
int lab_driver_time_roles(lab_driver *d, unsigned long n, double bytes, lab_driver_role_fn launch,
                          void *ctx, lab_err *err);
/* The steps before a family checks one output of 32-bit words: host[0..words) filled with
 * poison and copied to out, launch(ctx, role, shape) run to its end, out copied back into
 * host.  0, or <0 when the report already says what failed (stage setup, launch or run). */
int lab_driver_run_poisoned(lab_driver *d, lab_role role, unsigned long n, lab_dim3 shape,
                            lab_driver_role_fn launch, void *ctx, lab_dptr out, uint32_t *host,
                            size_t words, uint32_t poison, lab_err *err);
/* Appends one case {size, role, grid, correct, expected, got, bad, first_bad, detail}
 * through lab_driver_push_case. */
int lab_driver_add_case(lab_driver *d, unsigned long size, lab_role role, unsigned long grid,
                        double expected, double got, size_t bad, long first_bad, const char *detail,
                        lab_err *err);
/* Emits the report, closes the device; the process exit status. */
int lab_driver_finish(lab_driver *d);

#endif
