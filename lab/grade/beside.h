/*
 * beside.h - the runs beside a grading (lab/grade's own), each started before the grading's own
 * driver and finished after it; what they find is evidence for the judge (lab/grade/policy.h):
 *
 *   - on a GPU, the simulator's check of the student's kernel (races, divergent barriers, bad
 *     warp masks, accesses out of bounds), on the CPU while the GPU measures: its report, for
 *     the judge to make a right result WRONG on a hazard ("right on this GPU by luck"); a run
 *     the simulator cannot make is said in g->sim_skipped and costs nothing;
 *   - on the simulator, a speed exercise's run for the performance model: the three roles (a
 *     choice exercise: the student's kernel at every shape) at the sizes the model counts at,
 *     checks off, whose counts lab/grade/modelled.h makes times (g->model, g->has_model), or
 *     why not (g->model_skipped, g->model_needs);
 *   - on a GPU, a "baseline = cpu" exercise's CPU baseline, timed by a driver of its own
 *     (--cpu-baseline-only: no device, no student code) outside the GPU's lock, so that the
 *     GPU goes to the next grading while the host times; its row is put into the GPU run's
 *     report (lab/grade/runreport.h) before anything reads it.  A run that fails is the lab's
 *     failure, never a verdict: no speed step passes without the baseline's time.
 *
 * Call order: lab_beside_start_check / lab_beside_start_model / lab_beside_start_cpu (each sets
 * *started), the grading's run, then lab_beside_finish_cpu (before the report is parsed),
 * lab_beside_finish_check / lab_beside_finish_model for each one started.
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
/* Waits for the check: true with its report in *out ("ok": release it), else false and why in
 * g->sim_skipped. */
bool lab_beside_finish_check(lab_proc *p, lab_grading *g, lab_runreport *out);
/* graded: the sizes the student's own run checks; sizes: the two the model counts at. */
void lab_beside_start_model(lab *l, const lab_exercise *ex, const lab_family *fam, lab_grading *g,
                            lab_build *student, lab_build *baseline, lab_build *reference,
                            const lab_exercise *base_ex, const unsigned long *graded,
                            size_t ngraded, unsigned long sizes[2], lab_proc *p, bool *started);
/* gpu_name: the GPU modelled (NULL: the default); ptx: the student's (a choice's shape). */
void lab_beside_finish_model(lab *l, lab_proc *p, const lab_family *fam, lab_grading *g,
                             const lab_exercise *ex, const char *gpu_name,
                             const unsigned long sizes[2], const char *ptx);

/* Starts the CPU baseline's run when the grading times a "cpu" baseline on a GPU; the grading's
 * own driver then gets --no-cpu-baseline (pushed onto gpu_args). */
void lab_beside_start_cpu(lab *l, const lab_grade_request *req, const lab_grading *g,
                          const lab_exercise *base_ex, lab_strvec *gpu_args, lab_proc *p,
                          bool *started);
/* The CPU baseline's row into g->report_json (the GPU run's report, not parsed yet) where it has
 * timings that lack it: 0; or the run stopped, where nothing needs it (a wrong kernel, a failed
 * run).  <0: the lab could not time the CPU baseline (err says so in the learner's words). */
int lab_beside_finish_cpu(lab_proc *p, lab_grading *g, lab_err *err);

#endif
