/*
 * numbers.h - the course's measured figures, read from one table (docs/numbers.ini), and the
 * texts that quote them by name.
 *
 * A chapter, task, hint or question never writes a figure it quotes; it writes the figure's
 * name, {{h100.reduce.neighbored.us}}, and the lab puts the table's value there when it shows
 * the text (docs/design/numbers.md).  So two texts cannot disagree about a figure, and a
 * figure is changed in one place.  The demos read the same table for their "notes" and
 * "earlier run" columns.
 *
 * The table is an INI file: a section is one source (a recorded run, a file of the notes),
 * with the keys `source`, `gpu` and `date` (what, where and when), an optional `about`, and
 * the figures, `name = value`.  A figure's key is "SECTION.name"; keys are lower-case letters,
 * digits, '_' and '.'.  A value is kept as the table writes it ("217.6", "4 194 304",
 * "18-21") and shown as written.
 *
 * Call order: lab_numbers_load, then lab_numbers_find / lab_numbers_expand as often as
 * needed, then lab_numbers_free.  The table owns every string it hands out.
 */
#ifndef LAB_UTIL_NUMBERS_H
#define LAB_UTIL_NUMBERS_H

#include <stdbool.h>
#include <stddef.h>

#include "lab/util/buf.h"
#include "lab/util/err.h"

typedef struct lab_number {
    const char *key;    /* "h100.reduce.neighbored.us" */
    const char *value;  /* "217.6", as the table writes it */
    const char *source; /* its section's source, gpu and date */
    const char *gpu;
    const char *date;
    int line; /* in the table */
} lab_number;

typedef struct lab_numbers lab_numbers;

/* The table at path.  A line that breaks the rules above is an error "path:line: message"
 * (LAB_EPARSE); a file that cannot be read is LAB_ENOENT or LAB_EIO. */
int lab_numbers_load(const char *path, lab_numbers **out, lab_err *err);
void lab_numbers_free(lab_numbers *n);

size_t lab_numbers_count(const lab_numbers *n);
const lab_number *lab_numbers_at(const lab_numbers *n, size_t i); /* sorted by key */
/* The figure named key; NULL when the table has none (or n is NULL). */
const lab_number *lab_numbers_find(const lab_numbers *n, const char *key);
/* The figure named key as a number (its digits, without the spaces that group them); false
 * when there is none or its value is not one number (a range, "18-21"). */
bool lab_numbers_double(const lab_numbers *n, const char *key, double *out);

/*
 * Names the table does not hold, looked up elsewhere (the catalog's manifests): writes the
 * value into buf (size bytes) and returns buf, or returns NULL when key is unknown there too.
 */
typedef const char *(*lab_numbers_more)(void *ctx, const char *key, char *buf, size_t size);

/*
 * text (len bytes) with every {{name}} replaced by the figure's value, appended to out.  A
 * name neither n (which may be NULL) nor more (which may be NULL) knows, or a "{{" that does
 * not start a name, is LAB_EPARSE: "what:line: unknown figure 'name' (not in
 * docs/numbers.ini)", what naming the text.
 */
int lab_numbers_expand(const lab_numbers *n, const char *text, size_t len, const char *what,
                       lab_numbers_more more, void *ctx, lab_buf *out, lab_err *err);

/* Whether text holds a {{ at all: a text without one needs no expanding. */
bool lab_numbers_quoted(const char *text, size_t len);

#endif
