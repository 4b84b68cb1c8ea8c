/*
 * modelled.h - speed on the simulator: the modelled times of the student's kernel, the
 * baseline and the reference at the exercise's timing size, on a GPU described by its model
 * data file (kernels/gpus/h100.ini: lab/model/model.h), for the judge (lab/grade/policy.h),
 * which holds them to the step's line with the model's error band.
 *
 * The counts come from a second simulator run of all three roles at two sizes (2^16 and 2^18
 * elements, or less when the exercise's sizes are smaller), and are scaled to the timing size
 * by lab_model_scale: with the work (elements, or a matrix's elements), and for a fixed grid
 * with the GPU's SMs over the simulator's.
 *
 * Call order: lab_modelled_from_report (or lab_modelled_sweep_from_report) fills a lab_modelled
 * from that run's JSON report; lab_judge reads it.  Nothing allocated; nothing printed.
 */
#ifndef LAB_GRADE_MODELLED_H
#define LAB_GRADE_MODELLED_H

#include <stdbool.h>
#include <stddef.h>

#include "lab/catalog/catalog.h"
#include "lab/catalog/family.h"
#include "lab/model/model.h"
#include "lab/util/err.h"

/* The GPU the model stands for unless the request names another. */
#define LAB_MODEL_GPU_DEFAULT "h100"
/* Where the GPUs' data files are, under the lab's data folder. */
#define LAB_MODEL_GPU_DIR "kernels/gpus"

/* The roles as the driver names them. */
typedef enum lab_modelled_role {
    LAB_MODELLED_STUDENT,
    LAB_MODELLED_BASELINE,
    LAB_MODELLED_REFERENCE,
    LAB_MODELLED_ROLE_COUNT
} lab_modelled_role;

extern const char *const lab_modelled_role_names[LAB_MODELLED_ROLE_COUNT];

/* The most shapes of a choice exercise's sweep the model times. */
#define LAB_MODELLED_MAX_SHAPES 32

/* One shape of a choice exercise's sweep: the student's kernel launched with it. */
typedef struct lab_modelled_shape {
    char block[32];          /* "128x2", as the driver names it */
    lab_model_counts at;     /* as simulated, at lab_modelled.simulated */
    lab_model_counts counts; /* at the timed size */
    double ns;
    lab_model_why why;
} lab_modelled_shape;

typedef struct lab_modelled {
    lab_model_gpu gpu;
    unsigned long simulated;                          /* the larger size the counts were taken at */
    unsigned long small;                              /* the smaller one (== simulated: none) */
    unsigned long timed;                              /* the size they were scaled to */
    double work;                                      /* timed work / simulated work */
    bool has[LAB_MODELLED_ROLE_COUNT];                /* false: the CPU baseline, or missing */
    lab_model_counts counts[LAB_MODELLED_ROLE_COUNT]; /* at the timed size */
    /* as simulated, at small and at simulated (has_small false: none at small) */
    lab_model_counts at_small[LAB_MODELLED_ROLE_COUNT];
    lab_model_counts at_big[LAB_MODELLED_ROLE_COUNT];
    bool has_small[LAB_MODELLED_ROLE_COUNT];
    double ns[LAB_MODELLED_ROLE_COUNT];
    lab_model_why why[LAB_MODELLED_ROLE_COUNT];
    /* a choice exercise (choose_block): the student's kernel at every shape, and the shape it
     * chose (the student's role holds that shape's counts and time) */
    size_t nshapes;
    lab_modelled_shape shapes[LAB_MODELLED_MAX_SHAPES];
    int chosen; /* index in shapes */
    bool wave;  /* one wave of resident blocks: a part per block and a part per element */
} lab_modelled;

/* The elements the model's larger run counts (its smaller run, a quarter): the counts grow with
 * the work, so a quarter of the simulator's cap gives the same times in a quarter of the CPU
 * time (tests/e2e/test-model.sh checks the scaling). */
#define LAB_MODELLED_ELEMENTS (1ul << 18)

/* The GPU named (NULL: LAB_MODEL_GPU_DEFAULT) from the data folder's LAB_MODEL_GPU_DIR into
 * *out; LAB_ENOENT, naming the GPUs there, for one it does not know. */
int lab_modelled_gpu(const char *datadir, const char *name, lab_model_gpu *out, lab_err *err);

/* The largest of n sizes (0 for none). */
unsigned long lab_modelled_largest(const unsigned long *sizes, size_t n);

/* The work of size n of a family (elements; a matrix side's n x (n/2+3) elements). */
double lab_modelled_work(const lab_family *fam, unsigned long n);

/* The two sizes the model's run counts at, out[0] < out[1] (as n of fam: elements or a
 * matrix's side): powers of two of elements, LAB_MODELLED_ELEMENTS and a quarter of it, halved
 * until within largest (the largest size graded), so that no tail of a vector loop or of a
 * block skews what grows with the size. */
void lab_modelled_sizes(const lab_family *fam, unsigned long largest, unsigned long out[2]);

/* From the JSON report of the simulator's run of all roles at sizes small and big (sim_metrics,
 * cases, the device's SMs), for timing size timed.  gpu is copied.  LAB_EPARSE when the report
 * lacks the student's or the reference's counts at big. */
int lab_modelled_from_report(const char *json, size_t len, const lab_family *fam,
                             const lab_model_gpu *gpu, unsigned long small, unsigned long big,
                             unsigned long timed, lab_modelled *out, lab_err *err);

/* The size a choice exercise whose timing size is timed sweeps every shape at (as n of fam):
 * for a matrix, whose grid grows with it, a side of at most 2^18 elements' with the timed side's
 * remainder modulo 64, so that its rows meet the 32-byte sectors as the timed matrix's do; 2^11
 * elements otherwise, where a grid-stride loop's part per element comes from the graded run
 * instead (lab_modelled_sweep_from_report), so that the sweep pays each shape's blocks and
 * little more: a grading stays under issue 20's 1.5 s. */
unsigned long lab_modelled_sweep_size(const lab_family *fam, unsigned long timed);

/* A choice exercise's modelled sweep, from the simulator's run of the student's kernel at every
 * shape at size (json: sim_metrics and cases naming their block) and the graded run's report
 * (graded: the student's counts at its two largest sizes).  Where the graded run's grid stayed
 * the same at both (a grid-stride loop over one wave of resident blocks: occupancy/block-size),
 * its counts give the part per element, the sweep's the part per block of each shape, and the
 * GPU's wave is the model's occupancy with smem_block bytes of shared memory per block
 * (lab_model_scale_wave); otherwise every count grows with the work.  choice: the shape the
 * student chose ("1024"); it must be among the shapes swept.  LAB_EPARSE when a report lacks
 * what this needs. */
int lab_modelled_sweep_from_report(const char *json, size_t len, const char *graded,
                                   size_t graded_len, const lab_family *fam,
                                   const lab_model_gpu *gpu, unsigned long size,
                                   unsigned long timed, double smem_block, const char *choice,
                                   lab_modelled *out, lab_err *err);

/* How far (relative) over the modelled fastest shape a modelled choice is SLOW
 * (docs/bench/model.md, "Block-shape choices").  The model ranks the shapes of the course's two
 * choice exercises in the H100's order but compresses their spread (the H100's +3.9 % is +0.5 %
 * modelled), so a choice PASSes only as the modelled fastest, is SLOW past this margin (every
 * shape the H100 passes is modelled within 2.6 % of the fastest; the starters at +13 % and
 * +20 %), and between the two the model cannot tell: too close to call (the judge:
 * lab/grade/policy.c). */
#define LAB_MODELLED_CHOICE_SLOW 0.05

/* Whether the student's counts are the role's, every one the model reads: then their modelled
 * times are the same whatever the model's error. */
bool lab_modelled_same_counts(const lab_modelled *m, lab_modelled_role role);

#endif
