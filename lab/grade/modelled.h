/*
 * modelled.h - speed on the simulator: the modelled times of the student's kernel, the
 * baseline and the reference at the exercise's timing size, on a GPU described by its model
 * data file (kernels/gpus/h100.ini: lab/model/model.h), and a PASS or SLOW with the GPU's own
 * thresholds.
 *
 * The counts come from a second simulator run of all three roles at one size (the largest the
 * simulator runs of the exercise's sizes), and are scaled to the timing size
 * (lab_model_scale): by the work of the two sizes (elements, or a matrix's elements), the grid
 * kept when the student's grid did not grow with the size (a fixed grid).
 *
 * Call order: lab_modelled_from_report fills a lab_modelled from that run's JSON report;
 * lab_modelled_judge turns it into a verdict.  Nothing allocated; nothing printed.
 */
#ifndef LAB_GRADE_MODELLED_H
#define LAB_GRADE_MODELLED_H

#include <stdbool.h>
#include <stddef.h>

#include "lab/catalog/catalog.h"
#include "lab/catalog/family.h"
#include "lab/grade/policy.h"
#include "lab/model/model.h"
#include "lab/util/err.h"

/* The roles as the driver names them. */
typedef enum lab_modelled_role {
    LAB_MODELLED_STUDENT,
    LAB_MODELLED_BASELINE,
    LAB_MODELLED_REFERENCE,
    LAB_MODELLED_ROLE_COUNT
} lab_modelled_role;

extern const char *const lab_modelled_role_names[LAB_MODELLED_ROLE_COUNT];

typedef struct lab_modelled {
    lab_model_gpu gpu;
    unsigned long simulated; /* the size the counts were taken at */
    unsigned long timed;     /* the size they were scaled to */
    double work;             /* timed work / simulated work */
    bool fixed_grid;
    bool has[LAB_MODELLED_ROLE_COUNT];                /* false: the CPU baseline, or missing */
    lab_model_counts counts[LAB_MODELLED_ROLE_COUNT]; /* at the timed size */
    double ns[LAB_MODELLED_ROLE_COUNT];
    lab_model_why why[LAB_MODELLED_ROLE_COUNT];
} lab_modelled;

/* The work of size n of a family (elements; a matrix side's n x (n/2+3) elements). */
double lab_modelled_work(const lab_family *fam, unsigned long n);

/* From the JSON report of the simulator's run of all roles at size simulated (sim_metrics and
 * cases), for timing size timed; fixed_grid from the student's grids at two sizes.  gpu is
 * copied.  LAB_EPARSE when the report lacks the student's or the reference's counts. */
int lab_modelled_from_report(const char *json, size_t len, const lab_family *fam,
                             const lab_model_gpu *gpu, unsigned long simulated, unsigned long timed,
                             bool fixed_grid, lab_modelled *out, lab_err *err);

/* PASS or SLOW from the modelled times, with ex's thresholds (a CPU baseline cannot be
 * modelled: then the fraction of the reference alone decides), the message saying that the
 * times are modelled for the GPU and the model's measured error. */
void lab_modelled_judge(const lab_exercise *ex, const char *baseline_name, const lab_modelled *m,
                        lab_grade_result *out);

#endif
