/*
 * lab.h - the lab context every front end opens, and the grading of one
 * file against one exercise (DESIGN.md "How a grade flows").
 *
 * Paths (each overridable by an environment variable, for tests and installs):
 *   datadir     exercises/, solutions/, docs/     $CUDALAB_DATADIR; else <prefix>/share/cudalab
 *               of an installed copy (prefix = the binary's ../, symlinks resolved), else the
 *               source tree the binary was built in (bin/..)
 *   libexecdir  drivers, lab-kernels.ptx          $CUDALAB_LIBEXECDIR; else
 * <prefix>/libexec/cudalab, else build/libexec/cudalab of the source tree cachedir    compiled
 * kernels                  $CUDALAB_CACHE_DIR; else $XDG_CACHE_HOME/cudalab, else ~/.cache/cudalab
 *   store       progress.db (lab/grade/store.h)
 *
 * Call order: lab_open; lab_catalog_of / lab_device / lab_grade any number of
 * times; lab_close.  The lab never loads the CUDA driver itself: the device
 * probe and every run happen in driver processes.
 */
#ifndef LAB_GRADE_LAB_H
#define LAB_GRADE_LAB_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "lab/util/buf.h"
#include "lab/catalog/catalog.h"
#include "lab/util/err.h"
#include "lab/grade/policy.h"
#include "lab/util/hash.h"
#include "lab/grade/runreport.h"
#include "lab/platform/proc.h"
#include "lab/platform/sandbox.h"
#include "lab/grade/store.h"
#include "lab/util/strvec.h"
#include "lab/build/toolchain.h"

typedef struct lab lab;

typedef struct lab_device {
    bool present;
    char name[256];
    char cc[16];
    char arch[16];    /* "sm_90"; the build target */
    char reason[512]; /* why there is none */
    double peak_gbps;
    int sm_count;
    bool driver_found;        /* libcuda.so.1 could be loaded by the probe */
    int driver_version;       /* cuDriverGetVersion: 13000 = CUDA 13.0; 0 unknown */
    char driver_library[256]; /* where it was loaded from, or why not */
} lab_device;

typedef enum lab_stage {
    LAB_STAGE_COMPILE,
    LAB_STAGE_CHECK,
    LAB_STAGE_RUN,
    LAB_STAGE_RECORD,
    LAB_STAGE_COUNT
} lab_stage;

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
    bool calibrated;    /* min_speedup came from this GPU's calibration (lab/grade/calib.h) */
    double min_speedup; /* the threshold applied, when the kernel was timed */
} lab_grading;

int lab_open(lab **out, lab_err *err);
void lab_close(lab *l);
const lab_catalog *lab_catalog_of(const lab *l);
const char *lab_datadir(const lab *l);
const char *lab_libexecdir(const lab *l);
/* Compiled kernels' cache folder. */
const char *lab_builddir(const lab *l);
/* Where `make deps` puts CUDA tools the toolkit lacks (cuobjdump, nvdisasm from
 * PyPI): $CUDALAB_TOOLS_DIR, else <datadir>/tools/cuda/bin. */
const char *lab_toolsdir(const lab *l);
/* nvcc, found on first use; owned by the lab. */
int lab_toolchain_of(lab *l, const lab_toolchain **out, lab_err *err);
const char *lab_cachedir(const lab *l);
/* Run the student's compiles and the drivers that load the student's code under bubblewrap
 * (lab/platform/sandbox.h).  OFF by default ($CUDALAB_SANDBOX=off|auto|on at lab_open); ON fails
 * with LAB_ENOSYS and the reason when bubblewrap cannot run here, AUTO then runs unsandboxed. */
int lab_set_sandbox(lab *l, lab_sandbox_mode mode, lab_err *err);
bool lab_sandboxed(const lab *l);
/* The store, opened on first use. */
int lab_store_of(lab *l, lab_store **out, lab_err *err);
/* What GPU the drivers see (probed once per lab, in a child process). */
int lab_device_probe(lab *l, const lab_device **out, lab_err *err);
/* Probes one backend ("cuda", "sim") afresh: out->present when the drivers can run
 * kernels on it, else out->reason.  "sim" is the simulator's capability: a build
 * without it answers "not available". */
int lab_backend_probe(lab *l, const char *backend, lab_device *out, lab_err *err);
/* The student's file for an exercise: work/<chapter>/<name>.cu under the current directory. */
int lab_work_path(const lab_exercise *ex, lab_buf *out);

/* The build target: $CUDALAB_ARCH, else the probed GPU's, else LAB_DEFAULT_ARCH. */
const char *lab_target_arch(const lab_device *dev);
/* Runs DRIVER (a program in libexecdir) with --report-fd=3 and args; *p is the
 * caller's to release with lab_proc_release, also after a failure. */
int lab_run_driver(lab *l, const char *driver, lab_strvec *args, double timeout_s,
                   const volatile sig_atomic_t *cancel, lab_proc *p, lab_err *err);
/* Compiles ex's reference solution (cached); a failed build is an error of the lab's.
 * b is the caller's (lab_build_init before, lab_build_release after). */
int lab_build_solution(lab *l, const lab_exercise *ex, const char *arch,
                       const volatile sig_atomic_t *cancel, lab_build *b, lab_err *err);

/* The file a driver loads for ex's build b: a cubin, or a shared object of host code. */
const char *lab_module_path(const lab_exercise *ex, const lab_build *b);
/* For `cudalab profile`: builds file, the reference and the previous step's
 * reference for ex (cached), and fills argv with the family driver's command
 * line (its path first, the report on fd 3) for one short run on backend
 * ("cuda", "sim") at size (0: the largest timing size).  Kernel names of the
 * roles in kernels (student, then the previous step's if on the GPU).
 * 0 with *compiled false and the compiler's messages in log when file does not compile. */
int lab_profile_argv(lab *l, const lab_exercise *ex, const char *file, const char *backend,
                     unsigned long size, lab_strvec *argv, lab_strvec *kernels, bool *compiled,
                     lab_buf *log, lab_err *err);

void lab_grading_init(lab_grading *g);
void lab_grading_release(lab_grading *g);
/* 0 with g->result filled for every verdict; <0 when the lab could not grade
 * (missing file, no nvcc, a broken reference, cancelled: LAB_ECANCEL). */
int lab_grade(lab *l, const lab_grade_request *req, lab_grading *g, lab_err *err);

#endif
