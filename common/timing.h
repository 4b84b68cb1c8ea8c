/*
 * timing.h - honest kernel timing: warm-up, input restored, L2 flushed by a
 * read, CUDA events around the launch, student/baseline/reference
 * interleaved in one process (docs/design/timing.md).  No timed launch can
 * replay an earlier one: a kernel's samples rotate over its input sets (other
 * buffers, other contents, restored before each sample), and the output of a
 * random subset of the timed launches, the warm-up and a last round is checked.
 *
 * Call order:
 *   lab_timing_init(&t, ops, dev, &info, 5.0, path, &err)          loads the lab's kernels,
 *                                                                  allocates the flush buffer
 *   lab_timing_copy_gbps(&t, &gbps, &err)                          the D2D copy yardstick
 *   lab_timing_run(&t, kernels, n, &opts, results, &err)      per size
 *   lab_timing_release(&t)
 */
#ifndef LAB_HARNESS_TIMING_H
#define LAB_HARNESS_TIMING_H

#include <stdbool.h>

#include "common/dev.h"
#include "common/stats.h"

typedef struct lab_timed_kernel {
    const char *role;
    /* Untimed, stream-ordered work before each sample on input set `set` (restore the input,
     * poison the output); may be NULL. */
    int (*prepare)(void *ctx, unsigned set, lab_err *err);
    /* The launch being timed (asynchronous), on input set `set`. */
    int (*launch)(void *ctx, unsigned set, lab_err *err);
    /* After a sample on `set` finished: 0 when its output is right, 1 when it is not (why says
     * how), <0 when reading it failed.  NULL: the kernel's output is not checked. */
    int (*verify)(void *ctx, unsigned set, char *why, size_t why_size, lab_err *err);
    void *ctx;
    unsigned sets; /* input sets to rotate over; 0 counts as 1 */
} lab_timed_kernel;

/* Kernels timed together, interleaved: the three roles, or every shape of a block-size sweep
 * (the catalog's LAB_MAX_BLOCK_SHAPES). */
#define LAB_TIMING_MAX_KERNELS 16

typedef struct lab_timing_opts {
    unsigned min_samples; /* per kernel before the stop rule is looked at; 50 */
    double ci_target;     /* stop when every median's 95 % CI is within this; 0.0025 */
    double time_cap_s;    /* wall-clock cap for one size */
    double flush_l2;      /* the flush buffer's size, in L2 sizes; 5 */
    unsigned checks;      /* timed samples checked at random among the minimum's, about: 16 (a
                             sweep of one kernel at many shapes: 0, one in 16 of each shape's) */
} lab_timing_opts;

#define LAB_TIMING_OPTS_DEFAULT                                                                    \
    {                                                                                              \
        50, 0.0025, 4.0, 5.0, 16                                                                   \
    }

typedef struct lab_timing_result {
    lab_stats ns;        /* per-launch times in nanoseconds */
    bool capped;         /* stopped by the time cap before the CI target */
    size_t verified;     /* timed launches whose output was checked */
    bool wrong;          /* one of them was wrong: the first is described in why */
    size_t wrong_sample; /* which launch (0 = the warm-up) */
    char why[256];
} lab_timing_result;

typedef struct lab_timing {
    const lab_dev_ops *ops;
    lab_dev *dev;
    lab_module *kernels; /* lab-kernels.ptx */
    lab_dptr flush_buf;
    size_t flush_bytes;
    lab_dptr sink;
} lab_timing;

/* Loads lab-kernels.ptx from lab_kernels_path and sizes the flush buffer: flush_l2 times info's
 * L2, within the bounds timing.c sets. */
int lab_timing_init(lab_timing *t, const lab_dev_ops *ops, lab_dev *dev, const lab_dev_info *info,
                    double flush_l2, const char *lab_kernels_path, lab_err *err);
/* Read the flush buffer once (stream-ordered, asynchronous). */
int lab_timing_flush(lab_timing *t, lab_err *err);
/* Bytes read + written per second of a large device-to-device copy, in GB/s. */
int lab_timing_copy_gbps(lab_timing *t, double *gbps, lab_err *err);
/* Times kernels[0..n) interleaved in rotating order; results[i] for kernels[i].  A wrong
 * output is not an error: the result says so (wrong, why), and timing goes on. */
int lab_timing_run(lab_timing *t, const lab_timed_kernel *kernels, size_t n,
                   const lab_timing_opts *opts, lab_timing_result *results, lab_err *err);
void lab_timing_release(lab_timing *t);

#endif
