/*
 * demo.h - a chapter's demo: run its demo driver and read the report it
 * sends back (`cudalab demo CHAPTER`, the menu's demo views).
 *
 * Demo report protocol, version 1 (JSON on the report fd, like grading drivers):
 *   version   1
 *   kind      "demo"
 *   chapter   "divergence"
 *   backend   "cuda" | "sim"
 *   status    "ok" | "no_gpu" | "error"
 *   reason    one line, for no_gpu and error
 *   timing    "measured" (CUDA events) | "modelled" (the simulator's counts through the
 *             performance model) | "none" (the simulator without a model); absent in older
 *             reports: "measured"
 *   model     with "modelled": {gpu: "H100", file, median_abs_error, within_20 (fractions),
 *             kernels (the model was validated on), counted_work (the largest work simulated)}
 *   device    the same object as grade reports ({name, cc, ...})
 *   sections  [{title, text (optional paragraph),
 *               columns: [{name, unit}], rows: [[cell, ...]] (cells: string, number or null),
 *               chart (optional): {type: "bars", label: COL, value: COL}
 *                               | {type: "heatmap", x: COL, y: COL, value: COL},
 *               ncu (optional): {kernels: REGEX, metrics: [NAME], columns: [COL], status: COL}:
 *                   the lab runs Nsight Compute on the driver's --ncu-child and puts metric m
 *                   of launch i into row i's columns[m], "measured" or why not into status,
 *               modelled (optional): true when the section's times are modelled, with
 *               model_launches: [{kernel, grid, block, us, bound, work, counted: [WORK...]}]}]
 *   notes     ["one line each"]
 *   notes_format  beside notes: [{format, args} or null]: each note as a message of the lab's
 *             catalog and its arguments (common/demodrv.h), shown in the learner's language
 * Titles, paragraphs, column names and cells that are strings are English messages of the
 * catalog (N_() in lab/demos/), or names and code: the lab's renderer (lab/report/demo.c)
 * shows each through gettext.
 * Unknown fields are ignored; a report whose version is newer is refused.
 *
 * The driver runs as
 *   cudalab-driver demo-CHAPTER --backend cuda|sim --report-fd 3 --lab-kernels PATH
 *          [--model-gpu kernels/gpus/NAME.ini]
 *          [--step ID,KERNEL,FAMILY,BLOCK,UNROLL,MODULE_PATH,entry=MANGLED[,...]]...
 * one --step for every exercise of the chapter, in order, whose reference
 * solution compiles (BLOCK is the first block shape, "512" or "40x2").  With no GPU (or
 * $CUDALAB_BACKEND=sim) every demo runs on the simulator with --model-gpu: its times are
 * modelled for that GPU (the H100 unless lab_demo_run.model_gpu names another).
 *
 * Call order: lab_demo_run (or lab_demo_parse on a report text), read the
 * lab_demo_report, lab_demo_release (also after a failure).
 */
#ifndef LAB_INSTRUMENTS_DEMO_H
#define LAB_INSTRUMENTS_DEMO_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "lab/grade/runreport.h"
#include "lab/util/arena.h"
#include "lab/util/buf.h"
#include "lab/util/err.h"

struct lab;

#define LAB_DEMO_VERSION 1
#define LAB_DEMO_TIMEOUT_S 600

typedef enum lab_demo_cell_kind {
    LAB_DEMO_CELL_NULL,
    LAB_DEMO_CELL_STRING,
    LAB_DEMO_CELL_NUMBER,
} lab_demo_cell_kind;

typedef struct lab_demo_cell {
    lab_demo_cell_kind kind;
    const char *str; /* LAB_DEMO_CELL_STRING */
    double num;      /* LAB_DEMO_CELL_NUMBER */
} lab_demo_cell;

typedef struct lab_demo_column {
    const char *name;
    const char *unit; /* "" when none */
} lab_demo_column;

typedef enum lab_demo_chart_kind {
    LAB_DEMO_CHART_NONE,
    LAB_DEMO_CHART_BARS,    /* label, value */
    LAB_DEMO_CHART_HEATMAP, /* x, y, value */
} lab_demo_chart_kind;

typedef struct lab_demo_chart {
    lab_demo_chart_kind kind;
    size_t label, value, x, y; /* column indexes, checked against the columns */
} lab_demo_chart;

typedef struct lab_demo_section {
    const char *title;
    const char *text; /* NULL when none */
    const lab_demo_column *columns;
    size_t ncolumns;
    const lab_demo_cell *cells; /* nrows * ncolumns, row by row */
    size_t nrows;
    lab_demo_chart chart;
    bool modelled; /* its times are modelled, not measured */
} lab_demo_section;

typedef struct lab_demo_report {
    lab_arena arena; /* every string and array below */
    int version;
    const char *chapter;
    const char *backend;
    const char *status;    /* "ok", "no_gpu", "error" */
    const char *reason;    /* "" when none */
    lab_fmtmsg reason_msg; /* the reason as a message of the catalog, where the driver gave it */
    const char *device;    /* the device's name, "" when none */
    const char *timing;    /* "measured", "modelled" or "none" */
    /* with timing "modelled": the GPU modelled and the model's measured error on it */
    const char *model_gpu; /* "H100" */
    double model_error;    /* median absolute error, a fraction; 0: not measured */
    int model_kernels;     /* kernels it was measured on */
    const lab_demo_section *sections;
    size_t nsections;
    const char *const *notes;
    const lab_fmtmsg *note_msgs; /* beside notes: each one's format, "" when none */
    size_t nnotes;
} lab_demo_report;

typedef struct lab_demo_run {
    const char *model_gpu;  /* set before lab_demo_run_chapter: the GPU modelled on the
                               simulator (kernels/gpus/NAME.ini); NULL: the H100 */
    lab_demo_report report; /* valid when has_report */
    bool has_report;
    lab_buf json;   /* the report as sent */
    lab_buf errout; /* the driver's stderr */
    lab_buf steps;  /* "skipped ID: why" lines for solutions that did not compile */
} lab_demo_run;

/* Parses a demo report; *out is the caller's to release, also after a failure. */
int lab_demo_parse(const char *json, size_t len, lab_demo_report *out, lab_err *err);
void lab_demo_report_release(lab_demo_report *r);
/* One cell of a section. */
const lab_demo_cell *lab_demo_cell_at(const lab_demo_section *s, size_t row, size_t col);
/* Decimals a column's numbers are shown with: none when all are whole, else by the largest. */
int lab_demo_column_decimals(const lab_demo_section *s, size_t col);
/* A cell as tables show it with decimals ("-" for null). */
void lab_demo_format_cell(const lab_demo_cell *c, int decimals, char *buf, size_t size);
/* Is the report's timing modelled (a simulator's counts through the performance model)? */
bool lab_demo_is_modelled(const lab_demo_report *r);
/* A charted row's label: the bar chart's label cell, or "(x,y)" of a heat map; false when the
 * section has no chart. */
bool lab_demo_row_label(const lab_demo_section *s, size_t row, char *buf, size_t size);

void lab_demo_run_init(lab_demo_run *r);
void lab_demo_run_release(lab_demo_run *r);
/* Runs chapter's demo driver (the chapter must have one) and parses its report.
 * 0 with r->report filled; <0 when there is no demo, the driver could not run
 * or sent no readable report (err says why; r->errout holds its stderr). */
int lab_demo_run_chapter(struct lab *l, const char *chapter, const volatile sig_atomic_t *cancel,
                         lab_demo_run *r, lab_err *err);

#endif
