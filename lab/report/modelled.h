/*
 * modelled.h - the performance model's times laid out as styled lines (lab/report/lines.h):
 * each role's modelled time, a small bar of the share of it that its largest bound takes, that
 * bound and the two next, so that the learner sees why.  `cudalab grade` and the menu's result
 * view show it after a grading on the simulator (lab/report/grading.h), `cudalab inspect`
 * beside the compiler's view of the kernel (lab/report/inspection.h).
 *
 * Call order: a lab_modelled filled (lab/grade/modelled.h); lab_modelled_layout(o, m).
 */
#ifndef LAB_REPORT_MODELLED_H
#define LAB_REPORT_MODELLED_H

#include "lab/grade/modelled.h"
#include "lab/report/lines.h"

/* A heading line ("modelled H100 times at n = ..., from the simulator's counts at n = ..."),
 * then one line per role that m has. */
void lab_modelled_layout(lab_lineout *o, const lab_modelled *m);

#endif
