/*
 * demodrv.h - a chapter's demo (lab/demos/demo-*.c) as the driver program
 * runs it: its command line, the device, the lab's kernels, and the demo
 * report (protocol in lab/instruments/demo.h).
 *
 * The lab runs
 *   cudalab-driver demo-CHAPTER --backend cuda|sim --report-fd 3 --lab-kernels DIR/lab-kernels.ptx
 *          [--step ID,KERNEL,FAMILY,BLOCK,UNROLL,MODULE_PATH,entry=MANGLED[,KEY=VALUE...]]...
 *          [--model-gpu GPU.ini] [--numbers numbers.ini]
 * (keys: output=total, grid_per_sm=K) and, under Nsight Compute, the same program as
 *   cudalab-driver demo-CHAPTER --ncu-child --backend cuda --lab-kernels ...
 * when it only launches, once each, the kernels of its ncu sections
 * (lab_demodrv_ncu_section): the lab, not the driver, runs ncu and fills
 * those sections' cells.  Usage errors print to stderr and exit 2 with no
 * report; everything else ends in one report and exit 0.
 *
 * A demo supplies a lab_demo_driver: its run (lab_demodrv_load,
 * launches, lab_demodrv_time, lab_demodrv_section + rows, lab_demodrv_note;
 * a failure told with lab_demodrv_fail) and, when it has ncu sections, the
 * launches ncu measures.  lab_demodrv_main does the rest.
 *
 * On the simulator (--backend sim) there is no clock: given --model-gpu FILE (a GPU's model
 * data file, kernels/gpus/NAME.ini), lab_demodrv_time gives the times the performance model
 * (lab/model) predicts for that GPU from the simulator's counts of each launch
 * (common/demomodel.h); the report then says "timing": "modelled", and every section
 * added after such times carries "modelled": true and the modelled launches.  Without
 * --model-gpu it refuses, as before.
 *
 * The columns beside this GPU's (the notes' Tesla M2070, an earlier H100 run) come from the
 * course's table of figures, --numbers FILE (docs/numbers.ini), the one the chapters quote:
 * lab_demodrv_figure.  Without it those cells are empty and a note says why.
 */
#ifndef LAB_HARNESS_DEMODRV_H
#define LAB_HARNESS_DEMODRV_H

#include <stdbool.h>

#include <cJSON.h>

#include "common/dev.h"
#include "common/timing.h"
#include "lab/model/model.h"
#include "lab/util/numbers.h"

#define LAB_DEMODRV_MAX_STEPS 32

typedef struct lab_demodrv_step {
    char *text; /* the argument, split in place */
    const char *id, *kernel, *family, *module;
    lab_dim3 block;
    unsigned unroll;
    /* KEY=VALUE fields after the module: entry, and reduce-int's launch shapes */
    const char *entry;    /* entry=MANGLED: the kernel's entry (required) */
    bool total;           /* output=total: the whole sum into out[0] */
    unsigned grid_per_sm; /* grid_per_sm=K: a grid-stride kernel over K blocks per SM */
} lab_demodrv_step;

typedef struct lab_demodrv {
    const char *backend;
    int report_fd;
    const char *lab_kernels; /* path of lab-kernels.ptx; chapter kernels sit beside it */
    lab_demodrv_step steps[LAB_DEMODRV_MAX_STEPS];
    size_t nsteps;
    const lab_dev_ops *ops;
    lab_dev *dev;
    lab_dev_info info;
    lab_timing timing;
    double copy_gbps;
    bool ncu_child;             /* --ncu-child: launch the kernels once each for ncu, no report */
    const char *model_gpu_path; /* --model-gpu FILE: the simulator's times modelled, or NULL */
    const char *numbers_path;   /* --numbers FILE: the course's recorded figures, or NULL */
    lab_numbers *numbers;       /* loaded from it; NULL when not given or unreadable */
    bool modelled;              /* the model's GPU is loaded: lab_demodrv_time models */
    lab_model_gpu model_gpu;    /* the GPU modelled (when modelled) */
    cJSON *model_launches;      /* modelled launches not yet given to a section, or NULL */
    cJSON *report;
    cJSON *sections;
    cJSON *notes;
    cJSON *notes_format; /* beside notes: each one's format and arguments, or null */
    bool failed;
} lab_demodrv;

/* Does the demo run on the simulator (whose times, if any, are modelled)? */
bool lab_demodrv_is_sim(const lab_demodrv *d);
/* Loads the module at PATH (a step's cubin). */
int lab_demodrv_load_path(lab_demodrv *d, const char *path, lab_module **out, lab_err *err);
/* The entry of C++ kernel `kernel` in the PTX file NAME beside lab-kernels.ptx: the one whose
 * mangled name is _Z<len><kernel> and its parameters. */
int lab_demodrv_entry(lab_demodrv *d, const char *name, const char *kernel, char *out, size_t size,
                      lab_err *err);
/* Loads NAME (e.g. "divergence.ptx") from the directory of lab-kernels.ptx. */
int lab_demodrv_load(lab_demodrv *d, const char *name, lab_module **out, lab_err *err);
/* One kernel launch of a demo: what lab_demodrv_time times.  The fields after args serve the
 * model on the simulator (demomodel.h) and may stay zero: work is the launch's size (elements),
 * in_bytes and out_bytes what it reads and writes at that size (0: not known, the model then
 * counts the sectors alone), and resize, when not NULL, shapes the launch (its grid and the
 * arguments ctx holds) for a smaller work and returns the work it shaped; the simulator then
 * counts it at two affordable sizes and the model scales the counts to work. */
typedef struct lab_demodrv_launch lab_demodrv_launch;
struct lab_demodrv_launch {
    lab_demodrv *d;
    lab_module *m;
    const char *kernel; /* mangled name */
    lab_dim3 grid, block;
    void **args;
    double work;                                          /* elements at this launch's size */
    double in_bytes, out_bytes;                           /* at that size; 0: unknown */
    double (*resize)(lab_demodrv_launch *l, double work); /* NULL: simulated as it is */
    void *ctx;                                            /* resize's */
};

#define LAB_DEMODRV_TIMING                                                                         \
    {                                                                                              \
        100, 0.005, 2.0, LAB_DEMODRV_FLUSH_L2, 0                                                   \
    }
#define LAB_DEMODRV_FLUSH_L2 5.0

/* Times launches[0..n) interleaved (in groups of 8), the L2 read-flushed before each
 * sample; median microseconds into us[i].  On the simulator with a model: each launch's
 * modelled time (demomodel.h); without one: LAB_ENOSYS. */
int lab_demodrv_time(lab_demodrv *d, lab_demodrv_launch *launches, size_t n, double *us,
                     lab_err *err);

/* Appends a section; columns are name/unit pairs ending with NULL.  Returns its
 * rows array (append rows made with lab_demodrv_row), or NULL without memory. */
cJSON *lab_demodrv_section(lab_demodrv *d, const char *title, const char *text, ...)
    __attribute__((sentinel));
/* A figure of the course's table (docs/numbers.ini, lab/util/numbers.h), e.g.
 * "notes.000.neighbored.ms": NAN when the table was not given or has no such number. */
double lab_demodrv_figure(const lab_demodrv *d, const char *key);
/* The same figure as the table writes it ("18-21"), for a note's text; "?" when there is none. */
const char *lab_demodrv_figure_text(const lab_demodrv *d, const char *key);
/* A row from a format: 's' string, 'n' number (double; NAN: null), '-' null; e.g. "snn-". */
cJSON *lab_demodrv_row(cJSON *rows, const char *fmt, ...);
/* Adds a chart to the last section: "bars" with label, value; "heatmap" with x, y, value. */
void lab_demodrv_bars(lab_demodrv *d, int label, int value);
void lab_demodrv_heatmap(lab_demodrv *d, int x, int y, int value);
/* A note under the tables; fmt is a message of the lab's catalog (make pot takes it from the
 * demos' code): the report carries the English text and, in notes_format, fmt and its arguments,
 * so that the lab shows the note in the learner's language (lab/util/fmtargs.h).  A note's
 * words are whole sentences: an argument is a number, a name or code, never English words. */
void lab_demodrv_note(lab_demodrv *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Status "error" with err's message; returns err->code. */
int lab_demodrv_fail(lab_demodrv *d, const char *what, const lab_err *err);
/* Is PROGRAM on PATH (e.g. "ncu")?  Fills path when it is. */
bool lab_demodrv_on_path(const char *program, char *path, size_t size);
/* Appends a section whose metric columns Nsight Compute fills: row i holds launch i of the
 * kernels matching kernel_regex (in the order ncu_launch launches them); column columns[m]
 * gets metrics[m] and status_column "measured" or why not.  The driver adds the rows with
 * null in those columns; on the GPU the lab runs ncu and fills them.  Columns as for
 * lab_demodrv_section.  Returns the rows array, or NULL without memory. */
cJSON *lab_demodrv_ncu_section(lab_demodrv *d, const char *title, const char *text,
                               const char *kernel_regex, const char *const *metrics,
                               const int *columns, size_t nmetrics, int status_column, ...)
    __attribute__((sentinel));

/* What a chapter's demo supplies (lab/demos/demo-CHAPTER.c). */
typedef struct lab_demo_driver {
    const char *chapter;
    /* The demo: sections and notes; <0 when it failed (told with lab_demodrv_fail, or
     * "demo: " and err's message). */
    int (*run)(lab_demodrv *d, lab_err *err);
    /* --ncu-child: launch the ncu sections' kernels once each (NULL: no ncu section). */
    int (*ncu_launch)(lab_demodrv *d, lab_err *err);
} lab_demo_driver;

typedef struct lab_demo_program {
    const char *name; /* "demo-divergence" */
    const lab_demo_driver *demo;
} lab_demo_program;

/* The demos by program name (lab/demos/demos.c). */
extern const lab_demo_program lab_demo_programs[];
extern const size_t lab_demo_program_count;

/* The whole run of a demo: parse, open the device, load lab-kernels.ptx and measure the copy
 * bandwidth, run (or the ncu launches), report; the exit status. */
int lab_demodrv_main(const lab_demo_driver *demo, const char *program, int argc, char **argv);

#endif
