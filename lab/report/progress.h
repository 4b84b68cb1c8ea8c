/*
 * progress.h - a learner's progress in words, one wording for every front end: the CLI's
 * `list` and `next`, the menu's home and exercise views.
 */
#ifndef LAB_REPORT_PROGRESS_H
#define LAB_REPORT_PROGRESS_H

#include <stddef.h>

#include "lab/grade/store.h"

/* "not started", "passed, best 1.82x (100% of reference)", "passed, last PASS",
 * "attempted, last WRONG". */
void lab_progress_text(const lab_progress *p, char *buf, size_t size);
/* "Progress: 3 of 32 exercises passed, 30/320 points". */
void lab_progress_total_text(int passed, size_t exercises, int points, int max_points, char *buf,
                             size_t size);

#endif
