/*
 * dirlist.c - the files of one folder by suffix (see dirlist.h).
 */
#include "lab/util/dirlist.h"
#include "lab/util/err.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

static int
cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int
lab_dirlist(const char *dir, const char *suffix, bool with_dir, lab_strvec *out)
{
    const size_t slen = strlen(suffix), first = out->n;
    DIR *d = opendir(dir);
    struct dirent *de;
    int rc = 0;

    if (!d)
        return 0;
    while (rc == 0 && (de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (len <= slen || strcmp(de->d_name + len - slen, suffix) || de->d_name[0] == '.')
            continue;
        rc = with_dir ? lab_strvec_pushf(out, "%s/%s", dir, de->d_name)
                      : lab_strvec_pushf(out, "%.*s", (int)(len - slen), de->d_name);
    }
    closedir(d);
    if (out->n - first > 1)
        qsort(out->v + first, out->n - first, sizeof(*out->v), cmp_str);
    return rc < 0 ? LAB_ENOMEM : 0;
}
