/*
 * driver.h - the grading driver: its command line, the device, the three
 * roles' modules, the report, and how a failure is told.
 *
 * One driver program (libexec/cudalab/cudalab-driver, common/main.c)
 * serves every kernel-signature family.  The lab runs it as
 *   cudalab-driver FAMILY --backend cuda|sim|host --report-fd 3 --lab-kernels lab-kernels.ptx
 *          --student S.cubin --baseline B.cubin|cpu --reference R.cubin
 *          --kernel NAME --entry MANGLED [--baseline-kernel NAME --baseline-entry MANGLED]
 *          --sizes 1,1000 [--timing-sizes 1000] --block 512|40x2,8x4x2 [--unroll 1]
 *          [--output partials|total] [--grid-per-sm K]
 *          [--baseline-block N] [--baseline-unroll N] [--baseline-output partials|total]
 *          [--baseline-grid-per-sm K]
 *          [--seed N] [--min-samples 300] [--time-cap 4] [--choose-block] [--probe]
 *          [--no-cpu-baseline]
 *          [--occupancy-tables ARCH --occupancy-device ... --occupancy-kernels ...
 *           --occupancy-expected ...]
 * and reads one JSON object (common/report.h) from fd 3
 * (docs/design/runner-protocol.md).  The student and the reference share one
 * launch shape (block, unroll, output, grid per SM, entry); the baseline, the
 * step before, has its own, which defaults to theirs.  Entries are the
 * kernels' mangled names, which the lab computes from the family registry
 * (lab/catalog/families.def): no driver spells a signature.  With --backend
 * host the driver opens no device: the modules are shared objects of host
 * code (common/host.h).  Usage errors print to stderr and exit 2 with no
 * report; everything else ends in a report and exit 0, whatever the
 * student's kernel did.
 *
 * A "cpu" baseline is timed on the host.  The lab times it in a run of its own, beside the
 * GPU's driver and outside the GPU's lock:
 *   cudalab-driver FAMILY --cpu-baseline-only --report-fd 3 --timing-sizes 16777216 [--seed N]
 * opens no device and loads no module: at each timing size it builds the family's host-only
 * problem (cpu_setup) and reports the baseline's times as the GPU's run would ("timings", each
 * with its "baseline" kernel, "where": "cpu"; the report's backend "cpu"), and the GPU's driver,
 * given --no-cpu-baseline, leaves the row out.  The lab puts it back (lab/grade/runreport.h).
 *
 * A family (lab/drivers/FAMILY.c) supplies a lab_family_driver: its problem at
 * one size (inputs, expected values), the check of one role at one block
 * shape, the timed launch and the bytes it moves.  The harness's one main
 * runs the sizes: for each, setup -> check every role at every shape (the
 * student first: a fault kills the context) -> at a timing size, when every
 * case so far was right, time the roles interleaved (common/timing.h)
 * or, for a choice exercise, sweep the shapes (common/choose.h) ->
 * release.
 */
#ifndef LAB_HARNESS_DRIVER_H
#define LAB_HARNESS_DRIVER_H

#include <stdbool.h>
#include <stdint.h>

#include <cJSON.h>

#include "common/dev.h"
#include "common/host.h"
#include "common/rng.h"
#include "lab/util/arena.h"
#include "common/timing.h"
#include "lab/util/fmtargs.h"
#include "lab/util/buf.h"
#include "lab/util/strvec.h"

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
    bool choose_block;   /* --choose-block: the student's module names its shape
                            (common/choose.h) */
    bool branch_counts;  /* --branch-counts: on the simulator, the report's "sim_branches" */
    bool counts_only;    /* --counts-only: on the simulator, its checks off: a run for the counts
                            alone (the performance model's), whose findings nobody reads */
    bool student_only;   /* --student-only: only the student's module (the simulator's checks
                            beside a GPU grading) */
    bool cpu_only;       /* --cpu-baseline-only: no device, no module: the family's CPU baseline
                            timed alone at --timing-sizes (beside the GPU's driver) */
    bool no_cpu;         /* --no-cpu-baseline: a "cpu" baseline is not timed here (the lab times
                            it in a --cpu-baseline-only run of its own) */
    bool wait_go;        /* --wait-go: after loading the modules, wait for a byte on stdin (the
                            lab holds the GPU's lock then) before the first work on the GPU */
    bool wait_args;      /* --wait-args: open the device, then read the other arguments from
                            stdin (the lab starts the driver while nvcc builds the modules) */
    bool late_args;      /* they were read: the arguments are whole */
    bool device_inputs;  /* --device-inputs: on the simulator, inputs made by the lab's kernels
                            as on a GPU (common/devgen.h), to test them without one */
    const char *globals; /* --globals a,b: the student module's __device__ variables, restored
                            to their load-time contents before every run */
    struct {
        const char *tables;   /* --occupancy-tables sm_90: the answers are the lab's tables' */
        const char *device;   /* --occupancy-device: the task's OccDevice, 12 numbers */
        const char *kernels;  /* --occupancy-kernels R:S,...: each kernel's resources */
        const char *expected; /* --occupancy-expected: blocks per SM, every configuration */
    } occupancy; /* host-occupancy without a GPU: the grader's numbers (lab/grade/expected.h),
                    checked by the family's driver */
} lab_driver_args;

/* A __device__ variable of the student's module and the copy of its load-time contents. */
typedef struct lab_global {
    lab_dptr dev, pristine;
    size_t bytes;
} lab_global;

#define LAB_DRIVER_MAX_GLOBALS 32

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
    /* this size's device buffers, for the performance model: what the inputs' working copies
     * and the outputs hold, the most a kernel can read from or write to DRAM once each */
    double in_bytes, out_bytes;
    double in_small_bytes;     /* the smallest input buffer's: what may stay in the L2 (a table) */
    unsigned round;            /* 1, or 2 for the checks on new contents in the same buffers */
    const lab_dim3 *shape_now; /* the block shape being checked, where there are several */
    lab_global globals[LAB_DRIVER_MAX_GLOBALS];
    size_t nglobals;
    lab_strvec late_args; /* argv and what --wait-args read: args points into it */
    lab_strvec fd_args;   /* argv and what --args-fd gave: args points into it */
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
/* The student's __device__ variables (--globals) back to their load-time contents,
 * stream-ordered: state a kernel keeps between runs is gone before the next. */
int lab_driver_reset_globals(lab_driver *d, lab_role role, lab_err *err);
/* Appends the case object c ({size, role, correct, detail, ...}) to the report's cases.  On
 * the simulator it also records the launch's metrics under "sim_metrics" and, when a check
 * fired (race, out-of-bounds, divergent barrier...), makes the case wrong with the finding
 * as its detail.  Call it right after the launch whose result the case holds. */
void lab_driver_push_case(lab_driver *d, lab_role role, cJSON *c);
/* Marks the report "error": the role, the stage ("load", "launch", "run", "timing"),
 * the size, the device's own error code and err's message.  Returns err->code. */
int lab_driver_fail(lab_driver *d, lab_role role, const char *stage, unsigned long size,
                    const lab_err *err);
bool lab_driver_is_timing_size(const lab_driver *d, unsigned long n);

/* A family's step for one role (and block shape): a launch, or a whole check. */
typedef int (*lab_driver_role_fn)(void *ctx, lab_role role, lab_dim3 shape, lab_err *err);
/* Calls check for every block shape of --block and every role that runs (the student first: a
 * fault kills the context), until the report has failed. */
void lab_driver_check_shapes(lab_driver *d, lab_driver_role_fn check, void *ctx, lab_err *err);

/* One size of a family's run. */
typedef struct lab_size {
    unsigned long n; /* the exercise's size: elements, a matrix's side, blocks, bytes */
    double bytes;    /* set by setup: what one correct run must move, for GB/s and the bound */
} lab_size;

/* What one run of a role left, against what it should have: a case of the report. */
typedef struct lab_finding {
    unsigned long grid;   /* blocks launched, for the report */
    double expected, got; /* the case's summary values (a sum, or elements right of n) */
    size_t bad;           /* wrong results; 0: right */
    long first_bad;       /* index of the first, or -1 */
    char detail[256];     /* the first wrong result, in the student's terms */
    /* detail's format (a message of the catalog) and its arguments, for the lab to show it in
     * the learner's language (lab/util/fmtargs.h): set by lab_finding_detail; NULL: none */
    const char *detail_format;
    lab_fmtargs detail_args;
} lab_finding;

/* f->detail formatted from fmt, an English message that the lab translates: xgettext takes fmt
 * from every call (its keyword, in the Makefile), so fmt must be a literal. */
void lab_finding_detail(lab_finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A case's "detail", and its format and arguments where lab_finding_detail kept them. */
void lab_driver_add_detail(cJSON *case_, const lab_finding *f);

/* An input the kernel reads: a working copy on the device, which the kernel gets and may
 * overwrite, and a pristine copy it is restored from before every run (stream-ordered). */
typedef struct lab_input {
    lab_dptr dev;
    lab_dptr pristine;
    size_t bytes;
} lab_input;

/* Allocates in (both copies) for bytes. */
int lab_driver_input(lab_driver *d, size_t bytes, lab_input *in, lab_err *err);
/* host[0..bytes) becomes the pristine copy and the working copy. */
int lab_driver_input_set(lab_driver *d, lab_input *in, const void *host, lab_err *err);
/* The working copy back to the pristine one, stream-ordered. */
int lab_driver_input_restore(lab_driver *d, const lab_input *in, lab_err *err);

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
/* Every word of o poisoned on the device, stream-ordered. */
int lab_driver_output_poison(lab_driver *d, const lab_output *o, lab_err *err);

/* What each word of an output should be, and how to tell a wrong one. */
typedef struct lab_output_spec {
    uint32_t (*want)(const void *ctx, size_t i); /* word i < n's value */
    /* what a wrong word i should have been, after "NAME[i] = GOT, expected ": "src[4] = 17" */
    void (*explain)(const void *ctx, size_t i, uint32_t want, char *buf, size_t size);
    const char *name; /* the kernel's parameter, for messages: "out" */
    /* blocks a run of role at shape launches, for the report; NULL: ceil(n / its threads) */
    unsigned long (*grid)(void *ctx, lab_role role, lab_dim3 shape);
    bool shape_prefix; /* messages start "block 128: " (families checked at several shapes) */
} lab_output_spec;

/* Reads o back after a run and compares every word (the first bad one described: written past
 * n, never written, or a wrong value, after prefix, which may be NULL). */
int lab_driver_output_verify(lab_driver *d, lab_output *o, const lab_output_spec *spec,
                             const void *ctx, const char *prefix, lab_finding *out, lab_err *err);

/* The common head of a family whose kernel reads inputs and writes one output of words: the
 * first member of its problem, so that lab_words_prepare and lab_words_verify serve as the
 * family's prepare and verify. */
#define LAB_WORDS_MAX_INPUTS 4
typedef struct lab_words {
    lab_driver *d;
    unsigned long n;
    lab_input in[LAB_WORDS_MAX_INPUTS];
    size_t nin;
    lab_output out;
    const lab_output_spec *spec;
} lab_words;

/* w for size->n words of output with nin inputs checked against spec; size->bytes is
 * bytes_per_element per element. */
void lab_words_setup(lab_words *w, lab_driver *d, lab_size *size, size_t nin,
                     const lab_output_spec *spec, double bytes_per_element);
/* Every input restored and the output poisoned (problem starts with a lab_words). */
int lab_words_prepare(void *problem, lab_role role, lab_dim3 shape, lab_err *err);
/* The output read back and checked against spec (lab_driver_output_verify). */
int lab_words_verify(void *problem, lab_role role, lab_dim3 shape, lab_finding *out, lab_err *err);

/* One int array in, one out, a thread an element: the problem of the families
 *     __global__ void K(const int *in, int *out, unsigned int n)
 * launched with grid = ceil(n / block) (shuffle-int, branch-int).  in holds n random words
 * below 2^30 and poison past n; out is poisoned, with a guard zone after it that must stay so.
 * lab_int_map is the first member of its problem, as lab_words is of it. */
typedef struct lab_int_map {
    lab_words w; /* in[0]: in; out: out */
    int32_t *in; /* the host's copy of in: n words, then the guard's poison */
} lab_int_map;

/* m for size->n elements checked against spec, 8 bytes moved an element. */
int lab_int_map_setup(lab_int_map *m, lab_driver *d, lab_size *size, const lab_output_spec *spec,
                      lab_err *err);
/* A family driver's fill and launch for a problem that starts with a lab_int_map. */
int lab_int_map_fill(void *problem, lab_rng *rng, lab_err *err);
int lab_int_map_launch(void *problem, lab_role role, lab_dim3 shape, lab_err *err);

/* A float's bits, and the float of bits (outputs are checked as words). */
float lab_float_of_bits(uint32_t bits);
uint32_t lab_bits_of_float(float f);

/* Appends one case {size, role, grid, correct, expected, got, bad, first_bad, detail} through
 * lab_driver_push_case. */
int lab_driver_add_case(lab_driver *d, unsigned long size, lab_role role, const lab_finding *f,
                        lab_err *err);
/* A finding of bad results among total: expected total, got the right ones. */
void lab_finding_count(lab_finding *f, unsigned long grid, size_t total, size_t bad,
                       long first_bad);

/* A host-code role's function (--backend host): the family's host_call(function, shared) in
 * a process of its own (common/host.h) on the role's shared object, found by its entry, then
 * by its plain name (extern "C").  0 when it returned; <0 when the report already says what
 * went wrong (the object has no such function: stage "load"; it crashed: "run"; it ran out of
 * time: "timeout") at size. */
int lab_driver_call_host(lab_driver *d, lab_role role, unsigned long size, void *shared,
                         double timeout_s, lab_err *err);

/*
 * What a family's driver supplies (lab/drivers/FAMILY.c); the harness runs the rest.
 *
 * At each size the harness calls setup, then fill; checks every role at every shape; fills
 * again (new contents in the same buffers) and checks the student again, so that a kernel
 * that replays an earlier launch is wrong.  At a timing size it sets up and fills a second
 * problem, and the timed launches alternate between the two (common/timing.h), each run
 * prepared (inputs restored, outputs poisoned) untimed and a random subset of them verified.
 * A check is prepare -> launch -> wait -> verify -> a case, unless the family has a check of
 * its own.
 */
typedef struct lab_family_driver {
    size_t problem_size; /* of the family's problem, which the harness zeroes per size */
    /* Once, before the first size (may be NULL); <0 ends the run ("setup" unless it failed
     * the report itself). */
    int (*begin)(lab_driver *d, lab_err *err);
    /* The buffers for size->n (host memory from lab_driver_alloc, device memory, lab_input
     * and lab_output), size->bytes for a timed family. */
    int (*setup)(lab_driver *d, void *problem, lab_size *size, lab_err *err);
    /* New inputs drawn from rng into the problem's buffers, uploaded, with what every role
     * must give for them. */
    int (*fill)(void *problem, lab_rng *rng, lab_err *err);
    /* Untimed and stream-ordered, before every run of role: inputs restored, outputs
     * poisoned (may be NULL). */
    lab_driver_role_fn prepare;
    /* One run of role at shape, asynchronous (every launch of it). */
    lab_driver_role_fn launch;
    /* After a run of role at shape finished: its outputs read back and compared. */
    int (*verify)(void *problem, lab_role role, lab_dim3 shape, lab_finding *out, lab_err *err);
    /* A family whose check is more than prepare/launch/verify (it learns how the kernel
     * answers, or calls host code): the whole check of one role at one shape (may be NULL). */
    lab_driver_role_fn check;
    /* What the checks learnt, copied into the second problem of a timing size (may be NULL). */
    void (*adopt)(void *problem, const void *checked);
    /* The CPU baseline ("baseline = cpu"), timed at a timing size: cpu_restore untimed before
     * each run of cpu (either may be NULL). */
    void (*cpu_restore)(void *problem);
    void (*cpu)(void *problem);
    /* The CPU baseline's problem alone (--cpu-baseline-only): no device, host memory only
     * (lab_driver_alloc), its inputs drawn from rng; size->bytes what the baseline reads.
     * cpu_restore and cpu then run on it.  A family with a cpu has one; its times do not
     * depend on the values, so these inputs need not be the GPU run's. */
    int (*cpu_setup)(lab_driver *d, void *problem, lab_size *size, lab_rng *rng, lab_err *err);
    /* A host-code family: its call of the student's function, which runs in the student's
     * process (lab_driver_call_host), given the function and the shared area; it writes its
     * results there.  It may use nothing of the driver's: that process holds none of it. */
    lab_host_call_fn host_call;
    bool untimed; /* graded on correctness only: timing sizes are ignored */
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

/* Emits the report, closes the device; the process exit status. */
int lab_driver_finish(lab_driver *d);

#endif
