/*
 * inspection.h - what the compiler made of a kernel (lab/instruments/inspect.h)
 * laid out as styled lines (lab/report/lines.h), as `cudalab inspect` prints it
 * and the menu's Inspect view shows it: the exercise, file and architecture,
 * the kernel's resources (ptxas -v), its occupancy at the block it runs with,
 * the instruction mix, and a listing (SASS or PTX) with the student's source
 * lines interleaved and the marked instructions in their styles.  Source
 * lines and instructions come as LAB_LINE_SOURCE and LAB_LINE_INSN lines with
 * the source line they belong to, for a front end that moves through them.
 *
 * lab_inspection_diff_layout compares two inspections (`--diff`, `--previous`).
 *
 * Call order: lab_inspect filled in (in->build.ok); lab_inspection_layout.
 */
#ifndef LAB_REPORT_INSPECTION_H
#define LAB_REPORT_INSPECTION_H

#include <stdbool.h>

#include "lab/instruments/inspect.h"
#include "lab/report/lines.h"

typedef enum lab_inspection_listing {
    LAB_INSPECTION_SUMMARY, /* no listing */
    LAB_INSPECTION_SASS,    /* the SASS when there is some, else none */
    LAB_INSPECTION_PTX,
} lab_inspection_listing;

typedef struct lab_inspection_layout_opts {
    lab_inspection_listing listing;
    bool source; /* before the listing, every line of the file (the menu's Inspect) */
} lab_inspection_layout_opts;

/* 0, or LAB_ENOMEM or fn's failure (lines already given stay given).  The source file is read
 * again from in->file; when it cannot be read, its lines are left out. */
int lab_inspection_layout(const lab_inspection *in, const lab_inspection_layout_opts *opts,
                          lab_line_fn fn, void *arg);
/* A table of a (the earlier: the previous step, the other file) against b: resources, occupancy,
 * instruction mix (SASS when both have it, else PTX). */
int lab_inspection_diff_layout(const lab_inspection *a, const lab_inspection *b, lab_line_fn fn,
                               void *arg);

#endif
