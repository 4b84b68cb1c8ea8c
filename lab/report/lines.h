/*
 * lines.h - a report laid out once as lines of styled text, for every front
 * end to draw (htop's Object_Display filling a RichString that every panel
 * draws).
 *
 * A line is its text and one lab_text_style (lab/report/style.h) per byte, plus
 * what it is: a line of the student's source or an instruction, with the
 * source line it belongs to, so that a front end can make them items to move
 * through (the menu's Inspect) without reading the text.
 *
 * The reports (grading.h, inspection.h, profiling.h, demo.h) hand their lines,
 * in order, to a lab_line_fn: the CLI prints each one, the menu copies it into
 * its pager's document, lab_lines_collect keeps them in a lab_lines.
 *
 * Writing a report (the modules of lab/report only): lab_lineout_init with
 * the caller's function; lab_lineout_put the runs of a line, each in its
 * style, lab_lineout_end to hand the line over; lab_lineout_release.  The
 * first failure (out of memory, or the function's own) sticks in o->rc: what
 * follows is dropped and the layout returns it.
 */
#ifndef LAB_REPORT_LINES_H
#define LAB_REPORT_LINES_H

#include <stdbool.h>
#include <stddef.h>

#include "lab/util/buf.h"
#include "lab/util/err.h"
#include "lab/report/style.h"

typedef enum lab_line_kind {
    LAB_LINE_TEXT,   /* any other line */
    LAB_LINE_SOURCE, /* a line of the student's file: source_line */
    LAB_LINE_INSN,   /* a PTX or SASS instruction: source_line (0: not the student's), marked */
} lab_line_kind;

typedef struct lab_line {
    const char *text;            /* NUL-terminated, no newline */
    const unsigned char *styles; /* one lab_text_style per byte of text */
    size_t len;
    lab_line_kind kind;
    int source_line; /* LAB_LINE_SOURCE and LAB_LINE_INSN: the line of the student's file */
    bool marked;     /* LAB_LINE_INSN: the instruction carries a mark */
} lab_line;

/* Called once per line, in order; line and its strings are borrowed for the call.
 * Returns 0, or a negative LAB_E* that ends the layout (which returns it). */
typedef int (*lab_line_fn)(void *arg, const lab_line *line);

/* Lines kept: each line's text and styles are the list's own. */
typedef struct lab_lines {
    lab_line *v;
    size_t n;
    size_t alloc;
} lab_lines;

#define LAB_LINES_INIT                                                                             \
    {                                                                                              \
        NULL, 0, 0                                                                                 \
    }

void lab_lines_release(lab_lines *l);
/* A lab_line_fn whose arg is a lab_lines: appends a copy of line.  0 or LAB_ENOMEM. */
int lab_lines_collect(void *lines, const lab_line *line);
/* Hands lines from..n-1 of l to fn; 0 or fn's first failure. */
int lab_lines_replay(const lab_lines *l, size_t from, lab_line_fn fn, void *arg);
/* The first line of l's last paragraph (after its last empty line); 0 when it has none. */
size_t lab_lines_last_paragraph(const lab_lines *l);

/* --- writing a report ------------------------------------------------------------------ */

typedef struct lab_lineout {
    lab_buf text;
    lab_buf styles;
    lab_line_kind kind; /* of the line being written; back to LAB_LINE_TEXT after each */
    int source_line;
    bool marked;
    lab_line_fn fn;
    void *arg;
    int rc; /* 0, or the first failure */
} lab_lineout;

void lab_lineout_init(lab_lineout *o, lab_line_fn fn, void *arg);
void lab_lineout_release(lab_lineout *o);
/* Appends a run of text in style to the line being written. */
void lab_lineout_put(lab_lineout *o, lab_text_style style, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Appends text in style, padded with spaces to cols display columns: on the right (pad) or on
 * the left (pad_left, for numbers); Korean and Chinese characters take two columns, so a
 * table's columns are laid out with these, never with printf's "%-10s". */
void lab_lineout_pad(lab_lineout *o, lab_text_style style, const char *text, size_t cols);
void lab_lineout_pad_left(lab_lineout *o, lab_text_style style, const char *text, size_t cols);
/* Hands the line written so far (maybe empty) to the function and starts the next. */
void lab_lineout_end(lab_lineout *o);
/* Text (a compiler's log) as lines in style, split at its newlines; a last newline makes no
 * empty line. */
void lab_lineout_text(lab_lineout *o, lab_text_style style, const char *text);
/* Text in style appended to the line being written, wrapped at width columns on spaces (and
 * at its newlines), each line after the first starting with indent spaces; its last line is
 * left open for more.  width 0: no wrapping but at the newlines. */
void lab_lineout_flow(lab_lineout *o, lab_text_style style, const char *text, size_t width,
                      size_t indent);
/* A paragraph in style, wrapped at width columns on spaces (and at its newlines). */
void lab_lineout_wrap(lab_lineout *o, lab_text_style style, const char *text, size_t width);

/* A time as the reports write it: "12.34 us", or "1.23 ms" from a millisecond on. */
void lab_lines_format_ns(double ns, char *buf, size_t size);

#endif
