/*
 * beside.h - the simulator's runs beside a grading (lab/grade's own), each started before the
 * grading's own driver and judged after it:
 *
 *   - on a GPU, the simulator's check of the student's kernel (races, divergent barriers, bad
 *     warp masks, accesses out of bounds), on the CPU while the GPU measures: a hazard makes a
 *     right result WRONG ("right on this GPU by luck"); a run the simulator cannot make is said
 *     in g->sim_skipped and costs nothing;
 *   - on the simulator, a speed exercise's run for the performance model: the three roles (a
 *     choice exercise: the student's kernel at every shape) at the sizes the model counts at,
 *     checks off, whose counts lab/grade/modelled.h makes times (g->model, g->has_model), or
 *     why not (g->model_skipped, g->model_needs).
 *
 * Call order: lab_beside_start_check / lab_beside_start_model (each sets *started), the
 * grading's run, then lab_beside_judge_check / lab_beside_judge_model for each one started.
 */
#ifndef LAB_GRADE_BESIDE_H
#define LAB_GRADE_BESIDE_H

#include <stdbool.h>

#include "lab/build/toolchain.h"
#include "lab/catalog/family.h"
#include "lab/grade/grade.h"
#include "lab/grade/lab.h"
#include "lab/platform/proc.h"

void lab_beside_start_check(lab *l, const lab_grade_request *req, const lab_family *fam,
                            lab_grading *g, lab_build *student, lab_build *baseline,
                            lab_build *reference, const lab_exercise *base_ex, lab_proc *p,
                            bool *started);
void lab_beside_judge_check(lab_proc *p, lab_grading *g, const lab_exercise *ex);
/* graded: the sizes the student's own run checks; sizes: the two the model counts at. */
void lab_beside_start_model(lab *l, const lab_exercise *ex, const lab_family *fam, lab_grading *g,
                            lab_build *student, lab_build *baseline, lab_build *reference,
                            const lab_exercise *base_ex, const unsigned long *graded,
                            size_t ngraded, unsigned long sizes[2], lab_proc *p, bool *started);
/* gpu_name: the GPU modelled (NULL: the default); ptx: the student's (a choice's shape). */
void lab_beside_judge_model(lab *l, lab_proc *p, const lab_family *fam, lab_grading *g,
                            const lab_exercise *ex, const char *gpu_name,
                            const unsigned long sizes[2], const char *ptx);

#endif
