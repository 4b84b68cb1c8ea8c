/*
 * work.h - the student's copy of an exercise, work/CHAPTER/EXERCISE.cu under
 * the current directory: created from the starter, reset to it with a backup.
 * Shared by `start`, `reset`, `grade`, the menu and the shell.  And which exercise comes
 * next on the student's path (`cudalab next`, the menu after a PASS).
 */
#ifndef LAB_GRADE_WORK_H
#define LAB_GRADE_WORK_H

#include <stdbool.h>

#include "lab/catalog/catalog.h"
#include "lab/grade/store.h"
#include "lab/util/buf.h"

/* The student's file for an exercise: work/<chapter>/<name>.cu under the current directory. */
int lab_work_path(const lab_exercise *ex, lab_buf *out);
/* The exercise whose student's file work/CHAPTER/NAME is (NAME a file name such as
 * "neighbored.cu"), or NULL when it is no exercise's: what a watch makes of a save. */
const lab_exercise *lab_work_exercise_of(const lab_catalog *cat, const char *chapter,
                                         const char *name);
/* The student's file: created from the starter when missing (*created_out true then). */
int lab_work_start(const lab_exercise *ex, lab_buf *path_out, bool *created_out, lab_err *err);
/* Back the student's file up to FILE.N.bak (path in backup_out), then copy the starter over it. */
int lab_work_reset(const lab_exercise *ex, lab_buf *path_out, lab_buf *backup_out, lab_err *err);
/* The exercise to do next: the first one of cat not passed (by the progress in st) in course
 * order after `after` (from the first when NULL), wrapping round to the start; *out NULL when
 * every exercise is passed.  The exercise is the catalog's (borrowed). */
int lab_work_next(const lab_catalog *cat, lab_store *st, const lab_exercise *after,
                  const lab_exercise **out, lab_err *err);

#endif
