/*
 * demodrv.h - what every demo driver shares (lab/drivers/demo-*.c): its
 * command line, the device, the lab's kernels, and the demo report
 * (protocol in lab/instruments/demo.h).
 *
 * A demo driver runs as
 *   DRIVER --backend cuda|sim --report-fd 3 --lab-kernels DIR/lab-kernels.ptx
 *          [--step ID,KERNEL,FAMILY,BLOCK,UNROLL,MODULE_PATH[,KEY=VALUE...]]...
 * (keys: output=total, grid_per_sm=K, entry=MANGLED)
 * and, under Nsight Compute (lab_demodrv_ncu), as
 *   DRIVER --ncu-child --backend cuda --lab-kernels ...
 * when it only launches the kernels ncu is to measure, once each.
 * Usage errors print to stderr and exit 2 with no report; everything else
 * ends in one report and exit 0.
 *
 * Call order in main():
 *   if (lab_demodrv_start(&d, argc, argv, "divergence") == 0)
 *       ... lab_demodrv_load(&d, "divergence.ptx", &m, &err), launches, timing,
 *           lab_demodrv_section + rows, lab_demodrv_note ...
 *   return lab_demodrv_finish(&d);
 */
#ifndef LAB_HARNESS_DEMODRV_H
#define LAB_HARNESS_DEMODRV_H

#include <stdbool.h>

#include <cJSON.h>

#include "lab/harness/dev.h"
#include "lab/harness/timing.h"

#define LAB_DEMODRV_MAX_STEPS 32

typedef struct lab_demodrv_step {
    char *text; /* the argument, split in place */
    const char *id, *kernel, *family, *module;
    lab_dim3 block;
    unsigned unroll;
    /* optional KEY=VALUE fields after the module (reduce-int's launch shapes) */
    bool total;           /* output=total: the whole sum into out[0] */
    unsigned grid_per_sm; /* grid_per_sm=K: a grid-stride kernel over K blocks per SM */
    const char *entry;    /* entry=MANGLED: the exact entry (templates) */
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
    lab_module *lab_module; /* lab-kernels.ptx */
    lab_timing timing;
    double copy_gbps;
    bool ncu_child; /* --ncu-child: launch the kernels once each for ncu, no report */
    cJSON *report;
    cJSON *sections;
    cJSON *notes;
    bool failed;
} lab_demodrv;

/* Parses, opens the device, loads lab-kernels.ptx and measures the copy
 * bandwidth; 0 to go on, <0 when the report already says why not. */
int lab_demodrv_start(lab_demodrv *d, int argc, char **argv, const char *chapter);
/* Loads the module at PATH (a step's cubin). */
int lab_demodrv_load_path(lab_demodrv *d, const char *path, lab_module **out, lab_err *err);
/* Loads NAME (e.g. "divergence.ptx") from the directory of lab-kernels.ptx. */
int lab_demodrv_load(lab_demodrv *d, const char *name, lab_module **out, lab_err *err);
/* One kernel launch of a demo: what lab_demodrv_time times. */
typedef struct lab_demodrv_launch {
    lab_demodrv *d;
    lab_module *m;
    const char *kernel; /* mangled name */
    lab_dim3 grid, block;
    void **args;
} lab_demodrv_launch;

#define LAB_DEMODRV_TIMING                                                                         \
    {                                                                                              \
        100, 0.005, 2.0                                                                            \
    }

/* Times launches[0..n) interleaved (in groups of 8), the L2 read-flushed before each
 * sample; median microseconds into us[i]. */
int lab_demodrv_time(lab_demodrv *d, lab_demodrv_launch *launches, size_t n, double *us,
                     lab_err *err);

/* Appends a section; columns are name/unit pairs ending with NULL.  Returns its
 * rows array (append rows made with lab_demodrv_row), or NULL without memory. */
cJSON *lab_demodrv_section(lab_demodrv *d, const char *title, const char *text, ...)
    __attribute__((sentinel));
/* A row from a format: 's' string, 'n' number (double), '-' null; e.g. "snn-". */
cJSON *lab_demodrv_row(cJSON *rows, const char *fmt, ...);
/* Adds a chart to the last section: "bars" with label, value; "heatmap" with x, y, value. */
void lab_demodrv_bars(lab_demodrv *d, int label, int value);
void lab_demodrv_heatmap(lab_demodrv *d, int x, int y, int value);
void lab_demodrv_note(lab_demodrv *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Status "error" with err's message; returns err->code. */
int lab_demodrv_fail(lab_demodrv *d, const char *what, const lab_err *err);
/* Is PROGRAM on PATH (e.g. "ncu")?  Fills path when it is. */
bool lab_demodrv_on_path(const char *program, char *path, size_t size);
/* Runs ncu on this driver with --ncu-child for kernels matching regex (lab/harness/ncu-run.h). */
struct lab_ncurun;
void lab_demodrv_ncu(lab_demodrv *d, const char *regex, const char *const *metrics, size_t nmetrics,
                     struct lab_ncurun *out);
/* Emits the report, closes the device; the process exit status. */
int lab_demodrv_finish(lab_demodrv *d);

#endif
