/*
 * inifile.h - libinih over a file, with the line number of the key being
 * handled: Debian's libinih is built without INI_HANDLER_LINENO, so the lines
 * are counted as they are read.  The handler finds the number in the
 * lab_inifile it was given (embed one in the handler's own state).
 */
#ifndef LAB_UTIL_INIFILE_H
#define LAB_UTIL_INIFILE_H

#include <ini.h>
#include <stdio.h>

#include "lab/util/err.h"

typedef struct lab_inifile {
    FILE *fp;
    int line; /* of the key being handled */
} lab_inifile;

/* ini_parse_stream's result (0, or the first line it could not parse), or
 * LAB_ENOENT / LAB_EIO with err set when path cannot be opened. */
int lab_inifile_parse(const char *path, lab_inifile *f, ini_handler handler, void *user,
                      lab_err *err);

#endif
