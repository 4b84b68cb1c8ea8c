/*
 * profiling.h - `cudalab profile`'s counters (lab/instruments/profile.h) laid
 * out as styled lines (lab/report/lines.h), as the CLI prints them and the
 * menu's Profile view shows them.
 *
 * With ncu's table (status LAB_PROF_OK): the exercise and the device, then per
 * kernel profiled (yours, the previous step, the reference) a table of each
 * metric's nvprof name, ncu metric, value, the simulator's PTX-level figure
 * and what it means; last, where the simulator's figures come from.  Without
 * it (no ncu, no GPU, ...): per kernel the simulator's figures alone, when it
 * gave any; why there is no table is the front end's to say (the CLI's error
 * line, the menu's heading).
 *
 * A width under LAB_PROFILING_WIDE lays each metric out narrow: its nvprof
 * name, value and simulator figure on one line, what it means and the ncu
 * metric on the next (the menu's view); 0 or a wider one gives one wide row
 * per metric (the CLI).
 *
 * Call order: lab_profile filled p; lab_profiling_layout(p, ex, width, fn, arg).
 */
#ifndef LAB_REPORT_PROFILING_H
#define LAB_REPORT_PROFILING_H

#include "lab/instruments/profile.h"
#include "lab/report/lines.h"

/* Columns the one-row-per-metric table needs. */
#define LAB_PROFILING_WIDE 140

/* 0, or LAB_ENOMEM or fn's failure (lines already given stay given). */
int lab_profiling_layout(const lab_profiling *p, const lab_exercise *ex, int width, lab_line_fn fn,
                         void *arg);

#endif
