/*
 * grade.h - the grading of one file against one exercise (docs/design/architecture.md
 * "How a grade flows").
 *
 * lab_grade: read and hash the file -> probe the GPU (arch) -> build the
 * student's file, the baseline's and the reference's solutions -> check the
 * kernel exists and the constraints hold on the PTX -> run the family's
 * driver with a report pipe and the run timeout (runner.h) -> parse the
 * report -> gather the evidence (the runs beside it: beside.h) -> judge it (policy.h: the one
 * place a verdict is decided) -> record one attempt in the store.
 *
 * Call order: lab_grading_init; lab_grade; read g; lab_grading_release.
 */
#ifndef LAB_GRADE_GRADE_H
#define LAB_GRADE_GRADE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "lab/grade/lab.h"
#include "lab/grade/modelled.h"
#include "lab/grade/policy.h"
#include "lab/grade/runreport.h"
#include "lab/util/buf.h"
#include "lab/util/hash.h"

typedef enum lab_stage {
    LAB_STAGE_COMPILE,
    LAB_STAGE_CHECK,
    LAB_STAGE_RUN,
    LAB_STAGE_RECORD,
    LAB_STAGE_COUNT
} lab_stage;

/* What a stage does, as progress lines say it: "compiling", "checking", "running on", ... */
const char *lab_stage_name(lab_stage s);

typedef struct lab_grade_request {
    const lab_exercise *ex;
    const char *file; /* the student's kernel file */
    uint64_t seed;    /* 0: a fresh one */
    bool record;      /* add the attempt to the store */
    void (*on_stage)(lab_stage stage, const char *what, void *arg); /* progress, may be NULL */
    void *arg;
    const volatile sig_atomic_t *cancel; /* may be NULL */
    /* "cuda", "sim" or NULL: $CUDALAB_BACKEND if set, else cuda when a GPU is present and the
     * simulator when there is none (correctness only, sizes capped: LAB_SIM_MAX_SIZE). */
    const char *backend;
    /* A GPU grading also runs the student's kernel on the simulator, on the CPU while the GPU
     * measures, so that a hazard the GPU hid (a race, a barrier in divergent code, a bad
     * warp-sync mask, an access out of bounds) makes the verdict WRONG; true turns that off
     * (so does the exercise's `sim_check = false`). */
    bool no_sim_check;
    /* The GPU the performance model stands for on the simulator: the NAME of a
     * kernels/gpus/NAME.ini (lab/model/model.h); NULL: LAB_MODEL_GPU_DEFAULT.  An unknown name is
     * the lab's error, with the names there are; so is a name where a GPU measures. */
    const char *model_gpu;
} lab_grade_request;

/* Largest input size graded on the simulator; larger sizes become this one
 * ($CUDALAB_SIM_MAX_SIZE overrides it). */
#define LAB_SIM_MAX_SIZE (1ul << 20)

typedef struct lab_grading {
    lab_grade_result result;
    bool has_report;
    lab_runreport report;
    lab_buf report_json; /* the driver's report as sent */
    lab_buf compiler_log;
    char file_hash[LAB_HASH_HEX];
    uint64_t seed; /* of the inputs */
    char arch[16];
    char baseline_name[128]; /* "reduceNeighbored" or "the CPU recursiveReduce" */
    lab_device device;
    char backend[8];            /* "cuda", "sim", "host", or "" when nothing ran */
    unsigned long sim_max_size; /* on the simulator: the cap on sizes; 0 elsewhere */
    bool sizes_capped;          /* some of the exercise's sizes were larger */
    char sizes_cut[256];        /* then which, as what: "1048579 as 983043, ..." */
    /* The simulator's checks beside a GPU grading: ran (found nothing or a hazard), or why
     * they were skipped ("" when they were not asked for). */
    bool sim_checked;
    char sim_skipped[256];
    /* On the simulator, a speed exercise's modelled times (lab/grade/modelled.h), or why they
     * could not be had ("" when not asked for). */
    bool has_model;
    lab_modelled model;
    char model_skipped[256];
    /* The model's run: the baseline's and the reference's kept counts it reuses
     * (lab/grade/modelcache.h; empty when it runs them), else the key to keep them under. */
    lab_buf model_kept;
    char model_key[LAB_HASH_HEX];
    /* The size the model counts at, when the simulator's cap kept its run below it (then no
     * speed verdict); 0 otherwise. */
    unsigned long model_needs;
    bool judged; /* result holds the verdict, even when recording it then failed */
} lab_grading;

void lab_grading_init(lab_grading *g);
void lab_grading_release(lab_grading *g);
/* 0 with g->result filled for every verdict; <0 when the lab could not grade
 * (missing file, no nvcc, a broken reference, cancelled: LAB_ECANCEL), or could not record
 * the verdict: then g->judged is set, and the verdict and the compiler's messages are still
 * the student's to see, before the store's error (LAB_STORE_FIX says what to do). */
int lab_grade(lab *l, const lab_grade_request *req, lab_grading *g, lab_err *err);

#endif
