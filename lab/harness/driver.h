/*
 * driver.h - the grading driver: its command line, the device, the three
 * roles' modules, the report, and how a failure is told.
 *
 * One driver program (libexec/cudalab/cudalab-driver, lab/harness/main.c)
 * serves every kernel-signature family.  The lab runs it as
 *   cudalab-driver FAMILY --backend cuda|sim|host --report-fd 3 --lab-kernels lab-kernels.ptx
 *          --student S.cubin --baseline B.cubin|cpu --reference R.cubin
 *          --kernel NAME --entry MANGLED [--baseline-kernel NAME --baseline-entry MANGLED]
 *          --sizes 1,1000 [--timing-sizes 1000] --block 512|40x2,8x4x2 [--unroll 1]
 *          [--output partials|total] [--grid-per-sm K]
 *          [--baseline-block N] [--baseline-unroll N] [--baseline-output partials|total]
 *          [--baseline-grid-per-sm K]
 *          [--seed N] [--min-samples 300] [--time-cap 4] [--choose-block] [--probe]
 * and reads one JSON object (lab/harness/report.h) from fd 3
 * (docs/design/runner-protocol.md).  The student and the reference share one
 * launch shape (block, unroll, output, grid per SM, entry); the baseline, the
 * step before, has its own, which defaults to theirs.  Entries are the
 * kernels' mangled names, which the lab computes from the family registry
 * (lab/catalog/families.def): no driver spells a signature.  With --backend
 * host the driver opens no device: the modules are shared objects of host
 * code (lab/harness/host.h).  Usage errors print to stderr and exit 2 with no
 * report; everything else ends in a report and exit 0, whatever the
 * student's kernel did.
 *
 * A family (lab/drivers/FAMILY.c) supplies a lab_family_driver: its problem at
 * one size (inputs, expected values), the check of one role at one block
 * shape, the timed launch and the bytes it moves.  The harness's one main
 * runs the sizes: for each, setup -> check every role at every shape (the
 * student first: a fault kills the context) -> at a timing size, when every
 * case so far was right, time the roles interleaved (lab/harness/timing.h)
 * or, for a choice exercise, sweep the shapes (lab/harness/choose.h) ->
 * release.
 */
#ifndef LAB_HARNESS_DRIVER_H
#define LAB_HARNESS_DRIVER_H

#include <stdbool.h>
#include <stdint.h>

#include <cJSON.h>

#include "lab/harness/dev.h"
#include "lab/harness/host.h"
#include "lab/harness/rng.h"
#include "lab/util/arena.h"
#include "lab/harness/timing.h"
#include "lab/util/buf.h"

typedef enum lab_role {
    LAB_ROLE_STUDENT,
    LAB_ROLE_BASELINE,
    LAB_ROLE_REFERENCE,
    LAB_ROLE_COUNT
} lab_role;

extern const char *const lab_role_names[LAB_ROLE_COUNT];

/* How a role's kernel is launched and what it leaves behind. */
typedef struct lab_shape {
    unsigned block;
    unsigned unroll;
    bool total;           /* adds the whole sum into out[0] instead of one sum per block */
    unsigned grid_per_sm; /* 0: the grid covers n; else a grid-stride loop over K blocks per SM */
    const char *entry;    /* the exact entry name (templates), or NULL */
} lab_shape;

typedef struct lab_driver_args {
    const char *backend;
    int report_fd;
    uint64_t seed;
    const char *module[LAB_ROLE_COUNT]; /* module path, or "cpu" for a host baseline */
    const char *kernel[LAB_ROLE_COUNT]; /* plain kernel names */
    unsigned long sizes[16];
    size_t nsizes;
    unsigned long timing_sizes[16];
    size_t ntiming_sizes;
    unsigned block;      /* the student's and reference's: shape[LAB_ROLE_STUDENT].block, */
                         /* the threads of their first block shape */
    lab_dim3 blocks[16]; /* --block 40x2,8x4x2,512: the shapes to check on (or to sweep) */
    size_t nblocks;
    unsigned unroll; /* likewise */
    lab_shape shape[LAB_ROLE_COUNT];
    const char *lab_kernels;
    lab_timing_opts timing;
    bool probe;
    bool choose_block; /* --choose-block: the student's module names its shape
                          (lab/harness/choose.h) */
} lab_driver_args;

typedef struct lab_driver {
    const char *program; /* "reduce-int": the report's family */
    lab_driver_args args;
    const lab_dev_ops *ops;
    lab_dev *dev;
    lab_dev_info info;
    cJSON *report;
    cJSON *cases;   /* array in report */
    cJSON *timings; /* array in report */
    cJSON *metrics; /* "sim_metrics" array in report (simulator only), else NULL */
    lab_buf image[LAB_ROLE_COUNT];
    lab_module *module[LAB_ROLE_COUNT]; /* NULL for a cpu role */
    char mangled[LAB_ROLE_COUNT][256];
    lab_module *family_module; /* one a family's begin hook loaded for its sizes, or NULL */
    lab_timing timing;
    double copy_gbps;
    lab_arena size_memory; /* host memory of the size being run (lab_driver_alloc) */
    bool failed;           /* status is no longer "ok" */
    bool wrong;            /* a case was wrong: timing would grade nothing */
} lab_driver;

/* "40x2,8x4x2,512" into shapes (each 1..1024 threads); 0, or -1 when it is not such a list. */
int lab_driver_parse_shapes(const char *s, lab_dim3 *v, size_t max, size_t *n);

/* Parses, opens the device, loads the modules; 0 to go on, <0 when the report
 * already says why not (no_gpu, error) or on a usage error (exit 2).  program names the
 * report's family ("device-probe" only probes). */
int lab_driver_start(lab_driver *d, int argc, char **argv, const char *program);
/* n elements of size bytes of host memory for the size being run, uninitialised; freed by the
 * harness when the size is done.  NULL with err set (LAB_ENOMEM) when there is none. */
void *lab_driver_alloc(lab_driver *d, size_t n, size_t size, lab_err *err);
/* Does role run at all: a GPU role whose module loaded, or on host backends a role with a
 * shared object (not "cpu"). */
bool lab_driver_runs_role(const lab_driver *d, lab_role role);
/* A GPU role: its module is loaded on the device (the baseline may be the CPU's). */
bool lab_driver_is_gpu_role(const lab_driver *d, lab_role role);
/* Running on the simulator: no timing (ntiming_sizes is 0), metrics and checks instead. */
bool lab_driver_is_sim(const lab_driver *d);
/* True with --backend host: no device, the modules are shared objects. */
bool lab_driver_is_host(const lab_driver *d);
int lab_driver_launch(lab_driver *d, lab_role role, lab_dim3 grid, lab_dim3 block, unsigned shared,
                      void **args, lab_err *err);
/* Appends the case object c ({size, role, correct, detail, ...}) to the report's cases.  On
 * the simulator it also records the launch's metrics under "sim_metrics" and, when a check
 * fired (race, out-of-bounds, divergent barrier...), makes the case wrong with the finding
 * as its detail.  Call it right after the launch whose result the case holds. */
void lab_driver_push_case(lab_driver *d, lab_role role, cJSON *c);
/* Marks the report "error": the role, the stage ("load", "launch", "run", "timing"),
 * the size, the device's own error code and err's message.  Returns err->code. */
int lab_driver_fail(lab_driver *d, lab_role role, const char *stage, unsigned long size,
                    const lab_err *err);
/* At a timing size: every GPU role timed interleaved (lab/harness/timing), the host baseline
 * timed when the baseline is "cpu", and the size's entry added to the report's "timings". */
typedef struct lab_size_timing {
    unsigned long n;
    double bytes; /* moved by one run, for GB/s */
    /* Untimed before each sample (may be NULL), then the timed launch; both get ctx[role]. */
    int (*prepare)(void *ctx, lab_err *err);
    int (*launch)(void *ctx, lab_err *err);
    void *ctx[LAB_ROLE_COUNT];
    /* The host baseline, one run; cpu_restore (may be NULL) runs untimed before each. */
    void (*cpu_restore)(void *cpu_ctx);
    void (*cpu)(void *cpu_ctx);
    void *cpu_ctx;
} lab_size_timing;

bool lab_driver_is_timing_size(const lab_driver *d, unsigned long n);
/* Returns <0 (and the report says why) when timing failed on the device. */
int lab_driver_time_size(lab_driver *d, const lab_size_timing *s, lab_err *err);

/* A family's step for one role (and block shape): a check, or the timed launch. */
typedef int (*lab_driver_role_fn)(void *ctx, lab_role role, lab_dim3 shape, lab_err *err);
/* Calls check for every block shape of --block and every GPU role (the student first: a
 * fault kills the context), until the report has failed. */
void lab_driver_check_shapes(lab_driver *d, lab_driver_role_fn check, void *ctx, lab_err *err);
/* lab_driver_time_size for families whose only per-role difference is the role: launch
 * gets ctx, the role and the first block shape. */
int lab_driver_time_roles(lab_driver *d, unsigned long n, double bytes, lab_driver_role_fn launch,
                          void *ctx, lab_err *err);
/* The steps before a family checks one output of 32-bit words: host[0..words) filled with
 * poison and copied to out, launch(ctx, role, shape) run to its end, out copied back into
 * host.  0, or <0 when the report already says what failed (stage setup, launch or run). */
int lab_driver_run_poisoned(lab_driver *d, lab_role role, unsigned long n, lab_dim3 shape,
                            lab_driver_role_fn launch, void *ctx, lab_dptr out, uint32_t *host,
                            size_t words, uint32_t poison, lab_err *err);
/* Device memory holding a copy of host[0..bytes). */
int lab_driver_upload(lab_driver *d, const void *host, size_t bytes, lab_dptr *out, lab_err *err);

/* A kernel's output of 32-bit words: n of them with a value, then a guard zone; every word is
 * poisoned before each run, and the words written past n are a fault of the kernel's. */
typedef struct lab_output {
    lab_dptr dev;
    uint32_t *host; /* the copy read back after a run (the size's host memory) */
    unsigned long n;
    size_t words; /* n and the guard */
    uint32_t poison;
} lab_output;

/* Allocates o on the device and the host for n words and guard more. */
int lab_driver_output(lab_driver *d, unsigned long n, size_t guard, uint32_t poison, lab_output *o,
                      lab_err *err);

/* How one role's run fills an output, and what each word should be. */
typedef struct lab_output_check {
    lab_driver_role_fn launch; /* launch(ctx, role, shape) */
    void *ctx;                 /* the family's problem, for launch, want and explain */
    lab_dim3 shape;
    unsigned long grid;                          /* blocks launched, for the report */
    uint32_t (*want)(const void *ctx, size_t i); /* word i < n's value */
    /* what a wrong word i should have been, after "NAME[i] = GOT, expected ": "src[4] = 17" */
    void (*explain)(const void *ctx, size_t i, uint32_t want, char *buf, size_t size);
    const char *name;   /* the kernel's parameter, for messages: "out" */
    const char *prefix; /* put before each message ("block 128: "), or NULL */
} lab_output_check;

/* Runs role with o poisoned (lab_driver_run_poisoned), checks every word and adds the case at
 * size o->n (its first bad word described: written past n, never written, or a wrong value).
 * <0 when the report already says the run failed, or without memory. */
int lab_driver_check_output(lab_driver *d, lab_role role, lab_output *o, const lab_output_check *c,
                            lab_err *err);
/* Appends one case {size, role, grid, correct, expected, got, bad, first_bad, detail}
 * through lab_driver_push_case. */
int lab_driver_add_case(lab_driver *d, unsigned long size, lab_role role, unsigned long grid,
                        double expected, double got, size_t bad, long first_bad, const char *detail,
                        lab_err *err);
/* Emits the report, closes the device; the process exit status. */
int lab_driver_finish(lab_driver *d);

/* A host-code role's function (--backend host): run(function, shared) in a child process
 * (lab/harness/host.h) on the role's shared object, found by its entry, then by its plain
 * name (extern "C").  0 when it returned; <0 when the report already says what went wrong
 * (the object has no such function: stage "load"; it crashed: "run"; it ran out of time:
 * "timeout") at size. */
int lab_driver_call_host(lab_driver *d, lab_role role, unsigned long size,
                         void (*run)(void *function, void *shared), void *shared, double timeout_s,
                         lab_err *err);

/* One size of a family's run. */
typedef struct lab_size {
    unsigned long n; /* the exercise's size: elements, a matrix's side, blocks, bytes */
    lab_rng *rng;    /* the inputs' generator, seeded once for the whole run */
    double bytes;    /* set by setup: what one correct run moves, for GB/s */
} lab_size;

/* What a family's driver supplies (lab/drivers/FAMILY.c); the harness runs the rest. */
typedef struct lab_family_driver {
    size_t problem_size; /* of the family's problem, which the harness zeroes per size */
    /* Once, before the first size (may be NULL); <0 ends the run ("setup" unless it failed
     * the report itself). */
    int (*begin)(lab_driver *d, lab_err *err);
    /* The problem at size->n: inputs drawn from size->rng, expected values (host memory from
     * lab_driver_alloc), device buffers; size->bytes for a timed family. */
    int (*setup)(lab_driver *d, void *problem, lab_size *size, lab_err *err);
    /* One role at one block shape: poison, launch, compare, lab_driver_add_case. */
    lab_driver_role_fn check;
    /* The timed launch (NULL: the family is graded on correctness only). */
    lab_driver_role_fn launch;
    /* The family's own timing at a timing size instead of launch (may be NULL). */
    int (*time)(lab_driver *d, void *problem, lab_err *err);
} lab_family_driver;

/* The family drivers by name (lab/drivers/families.c, one per row of families.def). */
typedef struct lab_family_program {
    const char *name;
    const lab_family_driver *driver;
} lab_family_program;

extern const lab_family_program lab_family_programs[];
extern const size_t lab_family_program_count;

/* The whole run of family f's driver: start, every size, finish; the exit status. */
int lab_driver_main(const lab_family_driver *f, const char *program, int argc, char **argv);

#endif
