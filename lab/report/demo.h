/*
 * demo.h - a demo report (lab/instruments/demo.h) laid out as styled lines
 * (lab/report/lines.h): the header, each section's wrapped paragraph, its
 * table, its chart (a horizontal bar chart, or a heat map of x by y) and the
 * notes (the status line, paragraphs and notes wrap at the width; tables are
 * as wide as they are).  A report whose times are modelled (on the simulator) says so under
 * its header, and each modelled section's title says so too.  One layout for every front end:
 * `cudalab demo` prints the lines with terminal colours, the menu's demo view puts them in its
 * pager.  The layout knows nothing of any chapter: it draws whatever the report's sections hold.
 *
 * Heat-map cells are LAB_TEXT_HEAT + shade (0 coolest .. LAB_TEXT_SHADES - 1
 * hottest); with opts.shade_chars each cell also starts with a shade
 * character, for screens without colour.
 *
 * Call order: lab_demo_layout(report, opts, fn, arg); fn gets each line in order.
 */
#ifndef LAB_REPORT_DEMO_H
#define LAB_REPORT_DEMO_H

#include <stdbool.h>
#include <stddef.h>

#include "lab/instruments/demo.h"
#include "lab/report/lines.h"

typedef struct lab_demo_layout_opts {
    int width;        /* paragraphs wrap here; 0: 78 */
    bool shade_chars; /* heat cells start with a shade character */
} lab_demo_layout_opts;

/* The line that says a report's times are modelled, not measured, for which GPU and with what
 * error, appended to out (every front end shows it above a modelled report). */
void lab_demo_model_label(const lab_demo_report *r, lab_buf *out);
/* 0, or LAB_ENOMEM or fn's failure (lines already given stay given). */
int lab_demo_layout(const lab_demo_report *r, const lab_demo_layout_opts *opts, lab_line_fn fn,
                    void *arg);
/* The heat map's shade characters, coolest first ("' .:-=+*#%@'"). */
extern const char lab_demo_shade_chars[LAB_TEXT_SHADES + 1];

#endif
