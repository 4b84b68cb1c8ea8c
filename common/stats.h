/*
 * stats.h - the summary a timing reports: median, spread and the confidence
 * of the median (docs/design/timing.md, "The method").
 */
#ifndef LAB_HARNESS_STATS_H
#define LAB_HARNESS_STATS_H

#include <stddef.h>

typedef struct lab_stats {
    size_t samples;
    double median;
    double mad; /* median absolute deviation */
    double min, max;
    double ci_rel; /* 95 % half-width of the median, relative to it */
} lab_stats;

/* Summarize n samples (n > 0); the array is sorted in place. */
void lab_stats_summarize(double *v, size_t n, lab_stats *out);

#endif
