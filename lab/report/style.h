/*
 * style.h - the styles of laid-out text: what a run of a report's text is
 * (a verdict, a heading, a marked instruction), never how it looks.
 *
 * The reports (lab/report/) give every byte of a line one lab_text_style;
 * each front end maps them once to its own attributes: the CLI to SGR
 * colours (none with NO_COLOR or off a terminal), the menu to curses
 * attributes.  A verdict's style is LAB_TEXT_VERDICT + its tone, which the
 * verdict table (lab/grade/policy.c) gives.
 */
#ifndef LAB_REPORT_STYLE_H
#define LAB_REPORT_STYLE_H

#include "lab/grade/policy.h"

#define LAB_TEXT_SHADES 10 /* heat-map shades, coolest 0 .. hottest 9 */

typedef enum lab_text_style {
    LAB_TEXT_PLAIN,
    LAB_TEXT_BOLD,         /* a report's first line, the student's row of a sweep */
    LAB_TEXT_TITLE,        /* a section's title, a listing's heading */
    LAB_TEXT_GOOD,         /* a case that is right */
    LAB_TEXT_BAD,          /* a case that is wrong, "cannot launch" */
    LAB_TEXT_WARN,         /* "no GPU: ...", local memory in use */
    LAB_TEXT_DIM,          /* an aside: a line of another file */
    LAB_TEXT_SOURCE,       /* a line of the student's source */
    LAB_TEXT_MARK,         /* a marked instruction (barrier, atomic, vector access, ...) */
    LAB_TEXT_MARK_DIVERGE, /* a conditional branch: the warp may diverge there */
    LAB_TEXT_MARK_SELECT,  /* a select: both sides computed, no branch */
    LAB_TEXT_BAR,          /* the #s of a bar chart */
    LAB_TEXT_VERDICT,      /* + the verdict's tone, up to LAB_TEXT_VERDICT + LAB_TONE_COUNT - 1 */
    LAB_TEXT_HEAT = LAB_TEXT_VERDICT + LAB_TONE_COUNT, /* + shade, up to + LAB_TEXT_SHADES - 1 */
    LAB_TEXT_STYLE_COUNT = LAB_TEXT_HEAT + LAB_TEXT_SHADES
} lab_text_style;

/* How a verdict is shown: its tone's style. */
static inline lab_text_style
lab_text_verdict_style(lab_verdict v)
{
    return (lab_text_style)(LAB_TEXT_VERDICT + lab_verdict_describe(v)->tone);
}

#endif
