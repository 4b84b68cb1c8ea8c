/*
 * path.c - what a path names, from its text alone (see path.h).
 */
#include "lab/util/path.h"

#include <string.h>

bool
lab_path_in_dir(const char *path, const char *dir)
{
    size_t n = dir ? strlen(dir) : 0;

    return n && !strncmp(path, dir, n) && path[n] == '/';
}
