/*
 * inifile.c - counted lines for libinih (see inifile.h).
 */
#include "lab/util/inifile.h"
#include "lab/util/buf.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

char *
lab_inifile_next_line(char *str, int num, const char **next, int *too_long)
{
    const char *nl;
    size_t len;

    if (!**next)
        return NULL;
    nl = strchr(*next, '\n');
    len = nl ? (size_t)(nl - *next) + 1 : strlen(*next);
    /* the newline may take the last byte before the terminator, the text may not */
    if (num < 3 || len - (nl != NULL) > (size_t)num - 2) {
        *too_long = num - 2;
        return NULL;
    }
    memcpy(str, *next, len);
    str[len] = '\0';
    *next += len;
    return str;
}

static char *
read_line(char *str, int num, void *stream)
{
    lab_inifile *f = stream;

    if (f->too_long)
        return NULL;
    f->line++;
    return lab_inifile_next_line(str, num, &f->next, &f->too_long);
}

int
lab_inifile_parse(const char *path, lab_inifile *f, ini_handler handler, void *user, lab_err *err)
{
    lab_buf text = LAB_BUF_INIT;
    int rc;

    f->line = 0;
    f->too_long = 0;
    if ((rc = lab_buf_read_regular(&text, path, LAB_INIFILE_CAP, err)) < 0)
        goto out;
    if (memchr(text.buf, '\0', text.len)) {
        rc = lab_err_set(err, LAB_EPARSE, "%s: not a text file", path);
        goto out;
    }
    f->next = text.buf;
    rc = ini_parse_stream(read_line, f, handler, user);
    if (f->too_long)
        rc = lab_err_set(err, LAB_EPARSE, "%s:%d: line too long (more than %d characters)", path,
                         f->line, f->too_long);
out:
    f->next = NULL;
    lab_buf_release(&text);
    return rc;
}

bool
lab_inifile_number(const char *s, double *v)
{
    char *end;

    errno = 0;
    *v = strtod(s, &end);
    return s[0] && !*end && !errno && isfinite(*v);
}
