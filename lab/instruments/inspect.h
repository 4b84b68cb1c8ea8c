/*
 * inspect.h - what the compiler made of a kernel file, without a GPU: ptxas's
 * resource usage, the theoretical occupancy at the exercise's block size on an
 * architecture, and the PTX and SASS listings with source lines and marks
 * (lab/build/resusage.h, occupancy.h, sass.h).
 *
 * lab_inspect builds the file as grading does (lab/build/toolchain: cached PTX
 * and cubin, -lineinfo), runs ptxas -v on the PTX (its log cached beside the
 * cubin) and nvdisasm on the cubin.  Without nvdisasm the rest is still
 * filled and sass_why says what is missing.
 *
 * Call order: lab_inspection_init, lab_inspect, read, lab_inspection_release.
 */
#ifndef LAB_INSTRUMENTS_INSPECT_H
#define LAB_INSTRUMENTS_INSPECT_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "lab/grade/lab.h"
#include "lab/grade/modelled.h"
#include "lab/build/occupancy.h"
#include "lab/build/resusage.h"
#include "lab/build/sass.h"
#include "lab/build/toolchain.h"

/* A source line's conditional branches as the simulator ran them (branch-runs.c). */
typedef struct lab_branch_run {
    int line;           /* of the inspected file */
    unsigned branches;  /* PTX conditional branches of that line that ran */
    uint64_t runs;      /* warp executions of them (a warp in a loop counts once a pass) */
    uint64_t divergent; /* of those, the ones that split the warp */
} lab_branch_run;

typedef struct lab_inspection {
    /* set before lab_inspect, or NULL: when *cancel becomes nonzero, nvcc and ptxas are killed
     * and lab_inspect returns LAB_ECANCEL */
    const volatile sig_atomic_t *cancel;
    const lab_exercise *ex;
    char arch[16];
    char file[4096];
    lab_build build; /* build.ok false: build.log says why */
    lab_resusage res;
    const lab_funcres *kernel;     /* the exercise's kernel in res, or NULL */
    const lab_arch_limits *limits; /* NULL: no table row for arch */
    lab_occ_result occ;
    bool has_occ;
    unsigned block; /* the threads per block occ is for: the exercise's, or the file's choice */
    char block_from[64]; /* "chosenBlockX 128, chosenBlockY 2" when the file chose it, else "" */
    lab_listing ptx;
    lab_listing sass;
    bool has_sass;
    char sass_why[512];
    lab_mix ptx_mix; /* of the kernel */
    lab_mix sass_mix;
    /* The kernel run once on the simulator (the exercise's driver, student only, at
     * its smallest size that fills a warp): per source line, its branches' runs and how many
     * diverged.  Set no_runs before lab_inspect to skip it; runs_why says why there are none. */
    bool no_runs;
    bool has_runs;
    unsigned long runs_size;
    lab_branch_run *runs; /* by line */
    size_t nruns;
    char runs_why[512];
    /* The why of its speed without a GPU: the exercise's driver runs the student's kernel, the
     * baseline and the reference on the simulator at the performance model's sizes, and the
     * model makes the times at the timing size and what bounds each (lab/grade/modelled.h), as
     * a grading on the simulator shows them.  A timed exercise's only; set no_model before
     * lab_inspect to skip it; model_why says why there is none ("" for an untimed one). */
    bool no_model;
    const char *model_gpu; /* set before lab_inspect: kernels/gpus/NAME.ini; NULL: the H100 */
    bool has_model;
    lab_modelled model;
    char model_why[256];
} lab_inspection;

void lab_inspection_init(lab_inspection *in);
void lab_inspection_release(lab_inspection *in);
/* arch NULL: $CUDALAB_ARCH, else the GPU's, else LAB_DEFAULT_ARCH.
 * 0 also when the file does not compile (in->build.ok false). */
int lab_inspect(lab *l, const lab_exercise *ex, const char *file, const char *arch,
                lab_inspection *in, lab_err *err);

/* inspect.c calls it once the build is fine: fills has_model, model, model_why (model-run.c). */
void lab_inspect__model(lab *l, lab_inspection *in);

/* The runs of source line n, or NULL. */
const lab_branch_run *lab_inspection_branch_run(const lab_inspection *in, int line);
/* inspect.c calls it once the build is fine: fills has_runs, runs, runs_why (branch-runs.c). */
void lab_inspect__branch_runs(lab *l, lab_inspection *in);

/* The text of line n (from 1) of a source file's text, its length in *len; NULL past the end. */
const char *lab_source_line(const char *text, int n, size_t *len);
/* Whether an instruction's source path x names the inspected file (by base name: the cached
 * build may name the file as another working directory saw it). */
bool lab_inspect_is_own_file(const lab_inspection *in, const char *x);

#endif
