/*
 * profile.h - `cudalab profile`: the exercise's driver run once under Nsight
 * Compute with the chapter's metric set (lab/instruments/metrics.h), and per kernel
 * the counters next to the simulator's PTX-level figures where the driver's
 * report carries them.
 *
 *   ncu --clock-control none --csv --page raw --print-kernel-base function
 *       --log-file DIR/ncu.csv --metrics M1,M2,... -k regex:^(K|B)$ --launch-count N
 *       cudalab-driver FAMILY --report-fd=3 ... (one size, a short timing run)
 *
 * The driver checks the student's kernel, then the previous step's, then the
 * reference (same name as the student's), each launched once, before any timed
 * launch; so the first N matching launches are, in order: student, baseline,
 * reference.  ncu may lock clocks and serialises launches: its times are never
 * used for grading, and nothing here is recorded in the store.
 *
 * Simulator figures: the same driver run once more with --backend=sim at a
 * small size (the largest of the exercise's sizes up to LAB_PROFILE_SIM_MAX);
 * its report's optional "sim_metrics" array (common/report.h:
 * one {role, size, insts_per_warp, branch_efficiency, simt_efficiency, ...}
 * per case) gives the PTX-level figure of each metric that has one
 * (lab_metric.sim, scaled by sim_scale).  Without it: "not available".
 *
 * Without ncu or without a GPU the simulator's figures are still gathered
 * (status says why there is no ncu table; kernel[] and has_sim[] are filled).
 *
 * Call order: lab_profiling_init, (set cancel,) lab_profile, read,
 * lab_profiling_release.
 */
#ifndef LAB_INSTRUMENTS_PROFILE_H
#define LAB_INSTRUMENTS_PROFILE_H

#include <math.h>
#include <signal.h>
#include <stdbool.h>

#include "lab/grade/lab.h"
#include "lab/instruments/metrics.h"
#include "lab/instruments/ncu.h"

#define LAB_PROFILE_SIM_MAX 65536UL

typedef enum lab_prof_role {
    LAB_PROF_STUDENT,
    LAB_PROF_BASELINE,
    LAB_PROF_REFERENCE,
    LAB_PROF_ROLES
} lab_prof_role;

extern const char *const lab_prof_role_names[LAB_PROF_ROLES]; /* "student", ... as in reports */

typedef enum lab_prof_status {
    LAB_PROF_OK,            /* the table is filled */
    LAB_PROF_COMPILE_ERROR, /* the file does not compile: log */
    LAB_PROF_NO_NCU,        /* ncu not found: why */
    LAB_PROF_NO_GPU,        /* no GPU: why */
    LAB_PROF_NO_PERMISSION, /* ERR_NVGPUCTRPERM: why holds the fix */
    LAB_PROF_NCU_FAILED,    /* ncu ran but gave no table: why, output */
} lab_prof_status;

typedef struct lab_profiling {
    const volatile sig_atomic_t *cancel; /* set by the caller, may be NULL: LAB_ECANCEL */
    lab_prof_status status;
    char why[1024];
    lab_metric_set set;
    char kernel[LAB_PROF_ROLES][128]; /* "" for a role that is not a GPU kernel */
    bool has[LAB_PROF_ROLES];         /* ncu profiled that role */
    double value[LAB_PROF_ROLES][LAB_METRICS_MAX];
    bool has_value[LAB_PROF_ROLES][LAB_METRICS_MAX];
    double sim[LAB_PROF_ROLES][LAB_METRICS_MAX];
    bool has_sim[LAB_PROF_ROLES][LAB_METRICS_MAX];
    bool sim_reported;            /* the report carried sim_metrics at all */
    unsigned long sim_size;       /* n of the simulator's run */
    bool divides[LAB_PROF_ROLES]; /* the role's PTX divides: its counts differ most from ncu's */
    char sim_why[600];            /* why there are no simulator figures */
    char device[256];
    lab_buf log;        /* compiler messages */
    lab_buf output;     /* ncu's and the driver's stdout and stderr */
    lab_strvec command; /* the ncu command line as run */
} lab_profiling;

void lab_profiling_init(lab_profiling *p);
void lab_profiling_release(lab_profiling *p);
/* 0 with p->status set for every outcome above; <0 when the lab itself failed, or ex is host
 * code (LAB_EINVAL: no kernel to profile). */
int lab_profile(lab *l, const lab_exercise *ex, const char *file, lab_profiling *p, lab_err *err);
/* Builds file, the reference and the previous step's reference for ex (cached), and fills argv
 * with the family driver's command line (the report on fd 3) for one short run on backend
 * ("cuda", "sim") at size (0: the largest timing size).  Kernel names of the roles in kernels
 * (student, then the previous step's).  divides (NULL, or LAB_PROF_ROLES flags): whether each
 * role's PTX divides (a div or rem: one PTX instruction, many SASS ones).  0 with *compiled false
 * and the compiler's messages in log when file does not compile. */
int lab_profile_driver_argv(lab *l, const lab_exercise *ex, const char *file, const char *backend,
                            unsigned long size, lab_strvec *argv, lab_strvec *kernels,
                            bool *compiled, bool *divides, lab_buf *log, lab_err *err);
/* The size the simulator runs ex at: the largest a grading capped at LAB_PROFILE_SIM_MAX
 * elements would run (a matrix side for the matrix families), so that 2^24 stands in as 2^16. */
unsigned long lab_profile_sim_size(const lab_exercise *ex);
/* One value as the tables show it: "12.50 %", "2.10 MB", "1532.4 GB/s", "-" when !has. */
void lab_profile_format(char *buf, size_t size, bool has, double v, const char *unit);
/* Fills p's values from ncu's CSV (roles by launch order, see above). */
int lab_profile_read_csv(lab_profiling *p, const char *csv, lab_err *err);
/* Fills p's simulator figures from a driver report; no key is no error. */
void lab_profile_read_report(lab_profiling *p, const char *json, size_t len);

#endif
