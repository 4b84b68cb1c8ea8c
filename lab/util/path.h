/*
 * path.h - what a path names, from its text alone (no file is looked at).
 */
#ifndef LAB_UTIL_PATH_H
#define LAB_UTIL_PATH_H

#include <stdbool.h>

/* Does path lie below dir ("/usr/lib/x" below "/usr"; not "/usrx", not "/usr" itself)?  False
 * for a NULL or empty dir.  Both as written: the caller resolves links first where it matters. */
bool lab_path_in_dir(const char *path, const char *dir);

#endif
