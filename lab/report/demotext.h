/*
 * demotext.h - a demo report (lab/instruments/demo.h) laid out as lines of text:
 * the header, each section's wrapped paragraph, its table, its chart (a
 * horizontal bar chart, or a heat map of x by y) and the notes (the status
 * line, paragraphs and notes wrap at the width; tables are as wide as they are).  One layout
 * for every front end: `cudalab demo` prints the lines with terminal colours,
 * the menu's demo view puts them in its pager.  The layout knows nothing of
 * any chapter: it draws whatever the report's sections hold.
 *
 * Each line comes with one style byte per byte of text (lab_demo_style), so a
 * front end maps runs of a style to its own attributes.  Heat-map cells are
 * LAB_DEMO_STYLE_HEAT + shade (0 coolest .. LAB_DEMO_SHADES - 1 hottest); with
 * opts.shade_chars each cell also starts with a shade character, for screens
 * without colour.
 *
 * Call order: lab_demo_layout(report, opts, fn, arg); fn is called once per
 * line, in order; its text and styles are borrowed for the call.
 */
#ifndef LAB_REPORT_DEMOTEXT_H
#define LAB_REPORT_DEMOTEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "lab/instruments/demo.h"

#define LAB_DEMO_SHADES 10

typedef enum lab_demo_style {
    LAB_DEMO_STYLE_PLAIN,
    LAB_DEMO_STYLE_BOLD,  /* the header's "demo CHAPTER", a chart's title */
    LAB_DEMO_STYLE_TITLE, /* a section's title */
    LAB_DEMO_STYLE_BAR,   /* the #s of a bar */
    LAB_DEMO_STYLE_WARN,  /* "no GPU: ...", "error: ..." */
    LAB_DEMO_STYLE_HEAT,  /* + shade, up to LAB_DEMO_STYLE_HEAT + LAB_DEMO_SHADES - 1 */
} lab_demo_style;

typedef struct lab_demo_layout_opts {
    int width;        /* paragraphs wrap here; 0: 78 */
    bool shade_chars; /* heat cells start with a shade character */
} lab_demo_layout_opts;

typedef void (*lab_demo_line_fn)(void *arg, const char *text, const unsigned char *styles,
                                 size_t len);

/* 0, or LAB_ENOMEM (lines already given stay given). */
int lab_demo_layout(const lab_demo_report *r, const lab_demo_layout_opts *opts, lab_demo_line_fn fn,
                    void *arg);
/* The heat map's shade characters, coolest first ("' .:-=+*#%@'"). */
extern const char lab_demo_shade_chars[LAB_DEMO_SHADES + 1];
/* A cell as the table shows it with decimals ("-" for null). */
void lab_demo_format_cell(const lab_demo_cell *c, int decimals, char *buf, size_t size);
/* A charted row's label: the bar chart's label cell, or "(x,y)" of a heat map;
 * false when the section has no chart. */
bool lab_demo_row_label(const lab_demo_section *s, size_t row, char *buf, size_t size);

#endif
