/*
 * grading.h - a grading (lab/grade/grade.h) laid out as styled lines
 * (lab/report/lines.h), as `cudalab grade` prints it and the menu's result
 * view shows it: the exercise and file, where it ran, the compiler's log,
 * each case right or wrong, the timing table at the largest timed size, a
 * choice exercise's sweep, then the verdict paragraph (the verdict in its
 * style from the verdict table, the cause, the points; what to do next: the
 * finding's advice, else the verdict's).
 * The verdict paragraph is the layout's last: after its last empty line; it is
 * wrapped at the width it is given (the points kept whole), the tables are not.
 *
 * Call order: lab_grade filled g; lab_grading_layout(g, ex, file, width, fn, arg).
 */
#ifndef LAB_REPORT_GRADING_H
#define LAB_REPORT_GRADING_H

#include "lab/grade/grade.h"
#include "lab/report/lines.h"

/* width: the columns to wrap the verdict paragraph at, 0 for none (a pipe).  0, or LAB_ENOMEM or
 * fn's failure (lines already given stay given). */
int lab_grading_layout(const lab_grading *g, const lab_exercise *ex, const char *file, size_t width,
                       lab_line_fn fn, void *arg);

#endif
