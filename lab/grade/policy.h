/*
 * policy.h - the one judge: everything a grading found, gathered into one lab_evidence, becomes
 * one verdict with its one-line cause, its notes, the line its speed was held to and its points
 * (docs/design/grading-policy.md).  The rules live side by side in policy.c, in the order they
 * apply:
 *
 *   1. the run's report: a failed run, a wrong case (the first, and a replay's), a timed run
 *      that was wrong, a time past the memory's peak (verdict.h names what each means);
 *   2. speed, at the largest timed size:
 *      - on a GPU, against this GPU's line (speedline.h): PASS needs speed-up >= its line and
 *        fraction of the reference >= min_fraction_of_reference; where the step's lesson does
 *        not show on this GPU, matching the reference is what counts, and the untouched starter
 *        (or the step before's code) is told apart by its code, since its time cannot be;
 *      - a choice exercise (choose_block), on its sweep: PASS when the student's shape is
 *        within noise of the fastest (lab_grade_choice_noise);
 *      - on the simulator, on the performance model's times with the model's error band: SLOW
 *        only past the line by more than the model's error, PASS only inside it by more, and
 *        between, "correct; too close to call without a GPU", which costs the student nothing
 *        beyond what the lab cannot measure (lab_grade_points_correct);
 *   3. the simulator's check beside a GPU run: a hazard makes a right result WRONG;
 *   4. notes: sizes capped on the simulator, GPU ids read, where the expected numbers came from.
 *
 * The judge reads; it never runs anything.  The one piece of evidence it may need that costs a
 * compile (whether the student's code is the starter's) it asks for through a callback, only
 * where no time can tell.
 */
#ifndef LAB_GRADE_POLICY_H
#define LAB_GRADE_POLICY_H

#include <stdbool.h>

#include "lab/catalog/catalog.h"
#include "lab/grade/modelled.h"
#include "lab/grade/runreport.h"
#include "lab/grade/speedline.h"
#include "lab/grade/verdict.h"
#include "lab/util/err.h"

/* How far (relative) a choice's median may lie above the fastest's and still count as a tie:
 * twice both medians' 95 % intervals, and at least 2 %, since medians of separate processes
 * differ by up to 1.7 % (docs/design/timing.md). */
#define LAB_GRADE_CHOICE_FLOOR 0.02
double lab_grade_choice_noise(const lab_sweep_row *choice, const lab_sweep_row *best);
/* The fastest launched row of a sweep, or NULL. */
const lab_sweep_row *lab_grade_sweep_best(const lab_sweep *s);

/* A measured time may imply at most this fraction of the GPU's peak memory bandwidth
 * (2 x memory clock x bus width) for the bytes a correct kernel must move: the best kernels
 * reach 92 % on the H100 (docs/bench/reduce.md); past the margin the time is impossible for a
 * kernel that reads its input, and the verdict says so. */
#define LAB_GRADE_PEAK_MARGIN 1.10

/* The model's error band on a modelled speed-up where its data file has not measured one on
 * kernels it was not fitted on ([validation] speedup_error_p90, lab/model/model.h): wide, so that
 * an unmeasured model calls nothing it could get wrong. */
#define LAB_MODEL_BAND_UNMEASURED 0.20

/* Everything one grading found, for the judge.  Pointers are borrowed; NULL (or 0, "") where the
 * grading has no such evidence. */
typedef struct lab_evidence {
    const char *baseline_name;   /* "reduceNeighbored" or "the CPU recursiveReduce" */
    const lab_runreport *report; /* the grading's run (required) */
    /* on a GPU: the simulator's run of the student's kernel beside it, parsed and "ok" (NULL:
     * not asked for, or it could not run; the grading says why beside the verdict) */
    const lab_runreport *sim_check;
    /* on the simulator, a timed exercise: the model's run was asked for (model_asked), and its
     * modelled times, or why there are none */
    bool model_asked;
    const lab_modelled *model;
    const char *model_skipped;  /* why the model's run gave nothing */
    unsigned long model_needs;  /* the size the model counts at, kept out of reach by the cap */
    unsigned long sim_max_size; /* the simulator's cap on sizes */
    /* notes */
    unsigned long capped_at; /* on the simulator: the size (a matrix's: side) sizes were cut to */
    bool capped_sides;       /* capped_at is a matrix's side */
    const char *gpu_ids;     /* the GPU ids the kernel reads (lab_ptx_reads_names), or NULL */
    const char *tables;      /* what gave the expected numbers of host code, or why nothing did */
    bool from_tables;        /* ... the lab's tables, for want of a GPU */
    /* Whether the student's code is what the step starts from: returns "the starter" or "the
     * step before's kernel" (N_() text the judge translates), or NULL when it is neither or
     * cannot be told.  Asked only where the step's lesson does not show in time; NULL: never. */
    const char *(*unchanged)(void *arg);
    void *unchanged_arg;
} lab_evidence;

/* Judge the evidence: out gets the verdict and all that goes with it.  Fails (LAB_EDEVICE,
 * LAB_EPARSE) only when the lab itself is at fault: the reference or baseline failed or was
 * wrong, or the report lacks what the verdict needs. */
int lab_judge(const lab_exercise *ex, const lab_evidence *ev, lab_grade_result *out, lab_err *err);

/* lab_judge on a driver report and nothing else. */
int lab_grade_judge(const lab_exercise *ex, const char *baseline_name, const lab_runreport *r,
                    lab_grade_result *out, lab_err *err);

#endif
