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
 * Call order: lab_profile filled p; lab_profiling_layout(p, ex, fn, arg).
 */
#ifndef LAB_REPORT_PROFILING_H
#define LAB_REPORT_PROFILING_H

#include "lab/instruments/profile.h"
#include "lab/report/lines.h"

/* 0, or LAB_ENOMEM or fn's failure (lines already given stay given). */
int lab_profiling_layout(const lab_profiling *p, const lab_exercise *ex, lab_line_fn fn, void *arg);

#endif
