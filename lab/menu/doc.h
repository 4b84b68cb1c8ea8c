/*
 * doc.h - styled text for the menu's screens: a list of lines, each byte
 * with a style class, built from Markdown (md4c) or line by line.
 *
 * The menu's pager draws a lab_doc; the chapter text, task, hints, the
 * reference solution, a grading result and the help screen are all docs.
 * Markdown is laid out for a width (lab_doc_markdown); on a resize the
 * caller lays it out again.  Code (fenced blocks, lab_doc_code) gets CUDA
 * keyword highlighting.
 *
 * Ownership: a lab_doc owns its lines; lab_doc_release frees them.
 */
#ifndef LAB_MENU_DOC_H
#define LAB_MENU_DOC_H

#include <stdbool.h>
#include <stddef.h>

typedef enum lab_style {
    LAB_STYLE_TEXT,
    LAB_STYLE_HEADING,
    LAB_STYLE_STRONG,
    LAB_STYLE_EMPH,
    LAB_STYLE_CODE,    /* code block and inline code */
    LAB_STYLE_KEYWORD, /* CUDA and C keywords inside code */
    LAB_STYLE_COMMENT,
    LAB_STYLE_QUOTE,
    LAB_STYLE_TABLE,
    LAB_STYLE_DIM,
    LAB_STYLE_GOOD, /* PASS, ok */
    LAB_STYLE_BAD,  /* WRONG, errors */
    LAB_STYLE_WARN, /* SLOW, NO_GPU */
    LAB_STYLE_MATCH,
    LAB_STYLE_COUNT
} lab_style;

typedef struct lab_doc_line {
    char *text;           /* NUL-terminated */
    unsigned char *style; /* one lab_style per byte of text */
    size_t len;
} lab_doc_line;

typedef struct lab_doc {
    lab_doc_line *lines;
    size_t nlines;
    size_t alloc;
} lab_doc;

#define LAB_DOC_INIT                                                                               \
    {                                                                                              \
        NULL, 0, 0                                                                                 \
    }

void lab_doc_release(lab_doc *d);
/* Adds one line (no newline inside) in one style; 0 or LAB_ENOMEM. */
int lab_doc_add(lab_doc *d, lab_style style, const char *text);
/* Adds text split at its newlines (a tool's output), every line in style; a last newline makes
 * no empty line. */
int lab_doc_add_text(lab_doc *d, lab_style style, const char *text);
/* Adds text in style wrapped at width columns on spaces, continuation lines after indent. */
int lab_doc_add_wrapped(lab_doc *d, lab_style style, const char *text, int width,
                        const char *indent);
/* Adds one line of len bytes with one lab_style per byte in style. */
int lab_doc_add_styled(lab_doc *d, const char *text, const unsigned char *style, size_t len);
int lab_doc_addf(lab_doc *d, lab_style style, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Adds text, split at newlines, every line highlighted as CUDA C. */
int lab_doc_code(lab_doc *d, const char *text, size_t len, const char *indent);
/* Lays out Markdown text for width columns and appends it.  0, LAB_ENOMEM or LAB_EPARSE. */
int lab_doc_markdown(lab_doc *d, const char *text, size_t len, int width);
/* Adds the file at path: Markdown laid out for width, or (code) CUDA C highlighted; a file that
 * cannot be read is one line saying why.  0, LAB_ENOMEM or LAB_EPARSE. */
int lab_doc_file(lab_doc *d, const char *path, bool code, int width);
/* Columns a line takes (UTF-8 code points). */
size_t lab_doc_width(const char *text, size_t len);

#endif
