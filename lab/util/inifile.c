/*
 * inifile.c - counted lines for libinih (see inifile.h).
 */
#include "lab/util/inifile.h"

#include <errno.h>
#include <string.h>

static char *
read_line(char *str, int num, void *stream)
{
    lab_inifile *f = stream;
    char *r = fgets(str, num, f->fp);

    if (r)
        f->line++;
    return r;
}

int
lab_inifile_parse(const char *path, lab_inifile *f, ini_handler handler, void *user, lab_err *err)
{
    int rc;

    f->line = 0;
    if (!(f->fp = fopen(path, "r")))
        return lab_err_set(err, errno == ENOENT ? LAB_ENOENT : LAB_EIO, "cannot read '%s': %s",
                           path, strerror(errno));
    rc = ini_parse_stream(read_line, f, handler, user);
    fclose(f->fp);
    f->fp = NULL;
    return rc;
}
