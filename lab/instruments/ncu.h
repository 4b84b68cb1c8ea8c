/*
 * ncu.h - reading Nsight Compute's `ncu --csv --page raw` output: one header
 * row ("ID","Process ID","Process Name","Host Name","Kernel Name",...,"CC",
 * then one column per metric), an optional units row (its first field empty),
 * then one row per profiled kernel launch.  Lines before the header (the
 * profiled program's output, "==PROF==" lines) are skipped.  Values may carry
 * thousands separators ("10,240,000") and "n/a"; kernel names may carry their
 * parameter list ("reduceNeighbored(int *, int *, unsigned int)").
 *
 * Ownership: lab_ncu_parse fills a lab_ncu_table; lab_ncu_table_release.
 */
#ifndef LAB_INSTRUMENTS_NCU_H
#define LAB_INSTRUMENTS_NCU_H

#include <stdbool.h>
#include <stddef.h>

#include "lab/util/err.h"

typedef struct lab_ncu_launch {
    char *kernel;   /* base name, parameters cut off */
    double *values; /* one per table column; NAN when "n/a" or empty */
} lab_ncu_launch;

typedef struct lab_ncu_table {
    char **metrics; /* metric column names, in file order */
    char **units;   /* same length; "" when no units row */
    size_t nmetrics;
    lab_ncu_launch *launches;
    size_t nlaunches;
} lab_ncu_table;

#define LAB_NCU_TABLE_INIT                                                                         \
    {                                                                                              \
        NULL, NULL, 0, NULL, 0                                                                     \
    }

/* LAB_EPARSE when there is no header row. */
int lab_ncu_parse(const char *text, lab_ncu_table *out, lab_err *err);
void lab_ncu_table_release(lab_ncu_table *t);
/* The column of metric, or -1. */
int lab_ncu_column(const lab_ncu_table *t, const char *metric);
/* The value of metric for kernel's last profiled launch; false when none. */
bool lab_ncu_value(const lab_ncu_table *t, const char *kernel, const char *metric, double *out);
/* ncu's words for "counters not permitted" (ERR_NVGPUCTRPERM) appear in text. */
bool lab_ncu_no_permission(const char *text);

#endif
