/*
 * timesize.h - what a family driver does at a timing size, once for all
 * families: time every GPU role interleaved (common/timing), time the host
 * baseline when the baseline is "cpu", and add the size's entry to the
 * report's "timings".
 *
 *   if (lab_driver_is_timing_size(d, n))
 *       lab_driver_time_size(d, &(lab_size_timing){ n, bytes, prepare, launch, ctx,
 *                                                   cpu, cpu_ctx }, &err);
 */
#ifndef COMMON_TIMESIZE_H
#define COMMON_TIMESIZE_H

#include "common/driver.h"

typedef struct lab_size_timing {
    unsigned long n;
    double bytes; /* moved by one run, for GB/s */
    /* Untimed before each sample (may be NULL), and the timed launch; ctx[role] is their argument.
     */
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

#endif
