/*
 * gradeargs.h - what a grading asks of the driver program (lab/grade's own): the sizes of an
 * exercise the driver checks, capped for the simulator, and the arguments that name the roles'
 * modules, the sizes, the seed and the student's __device__ variables.  Shared by the grading's
 * own run (grade.c) and the simulator's runs beside it (beside.c).
 */
#ifndef LAB_GRADE_GRADEARGS_H
#define LAB_GRADE_GRADEARGS_H

#include <stdbool.h>
#include <stddef.h>

#include "lab/build/toolchain.h"
#include "lab/catalog/catalog.h"
#include "lab/grade/grade.h"
#include "lab/grade/lab.h"
#include "lab/util/strvec.h"

/* The exercise's sizes, each at most cap (0: none; a larger one keeps its remainder), without
 * repeats; true when one was cut. */
bool lab_grading_sizes(const lab_exercise *ex, unsigned long cap, unsigned long *sizes, size_t max,
                       size_t *n);
/* The sizes of ex that cap cuts, each with the size it runs at ("1048579 as 983043, 16777216 as
 * 1048576"), into buf; "" when cap cuts none. */
void lab_grading_capped_text(const lab_exercise *ex, unsigned long cap, char *buf, size_t size);
/* The driver's arguments for ex at these sizes on backend: the roles, the sizes, the seed, the
 * student's __device__ variables to restore before every run. */
void lab_grading_driver_args(lab *l, const lab_exercise *ex, const lab_exercise *base_ex,
                             const lab_grading *g, const char *backend, lab_build *student,
                             lab_build *baseline, lab_build *reference, const unsigned long *sizes,
                             size_t nsizes, lab_strvec *args);

#endif
