/*
 * metrics.h - the hardware counters the chapters talk about: the notes'
 * nvprof name, today's Nsight Compute (ncu) metric, its unit and what the
 * number means, in one table (names checked on an H100 with ncu 2025.3,
 * docs/design/gpu-facts.md); and which of them a chapter profiles.
 *
 * A chapter names its set in exercises/<chapter>/profile.ini:
 *   [profile]
 *   version = 1
 *   metrics = branch_efficiency, inst_per_warp, achieved_occupancy
 * Without the file a chapter gets every metric.  Keys are the table's `key`.
 */
#ifndef LAB_INSTRUMENTS_METRICS_H
#define LAB_INSTRUMENTS_METRICS_H

#include <stddef.h>

#include "lab/util/err.h"

#define LAB_METRICS_MAX 24

typedef struct lab_metric {
    const char *key;     /* "branch_efficiency": profile.ini and the simulator's report */
    const char *nvprof;  /* the notes' name */
    const char *ncu;     /* Nsight Compute metric */
    const char *unit;    /* "%", "bytes", "" */
    const char *meaning; /* one line */
    const char *sim;     /* the simulator's figure in a report's sim_metrics, or NULL */
    double sim_scale;    /* its ratio to the ncu unit (0..1 -> %: 100) */
} lab_metric;

size_t lab_metric_count(void);
const lab_metric *lab_metric_at(size_t i);
const lab_metric *lab_metric_find(const char *key);

typedef struct lab_metric_set {
    const lab_metric *v[LAB_METRICS_MAX];
    size_t n;
} lab_metric_set;

/* The chapter's set from <datadir>/exercises/<chapter>/profile.ini, or every
 * metric when there is none; "file:line: message" for a bad file. */
int lab_metrics_for_chapter(const char *datadir, const char *chapter, lab_metric_set *out,
                            lab_err *err);

#endif
