/*
 * inifile.h - libinih over a file, with the line number of the key being
 * handled: Debian's libinih is built without INI_HANDLER_LINENO, so the lines
 * are counted as they are read.  The handler finds the number in the
 * lab_inifile it was given (embed one in the handler's own state).
 *
 * The file must be a regular file of at most LAB_INIFILE_CAP bytes (a FIFO or
 * a device is refused, never waited on), and no line may be longer than
 * libinih's buffer: libinih would cut it and parse its tail as a line of its
 * own, so a long line is an error "file:line: line too long".
 */
#ifndef LAB_UTIL_INIFILE_H
#define LAB_UTIL_INIFILE_H

#include <ini.h>
#include <stdbool.h>

#include "lab/util/err.h"

#define LAB_INIFILE_CAP (1024 * 1024)

typedef struct lab_inifile {
    int line; /* of the key being handled */
    /* private to inifile.c */
    const char *next; /* the rest of the text */
    int too_long;     /* the length limit a line went past, 0 if none */
} lab_inifile;

/* ini_parse_stream's result (0, or the first line it could not parse), or
 * LAB_ENOENT / LAB_EIO / LAB_EINVAL with err set when path cannot be read
 * (is missing, no regular file, too large), or LAB_EPARSE for a line too long. */
int lab_inifile_parse(const char *path, lab_inifile *f, ini_handler handler, void *user,
                      lab_err *err);

/*
 * For readers of lines of their own (the catalog's manifests): the next line of *next into
 * str (num bytes, a final newline kept), advancing *next; NULL at the end or when the line
 * does not fit (then *too_long is set to the longest that fits).
 */
char *lab_inifile_next_line(char *str, int num, const char **next, int *too_long);

/* Whether a value is a finite number, all of it (strtod's forms); *v is the number. */
bool lab_inifile_number(const char *s, double *v);

#endif
