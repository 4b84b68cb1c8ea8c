/*
 * dirlist.h - the files of one folder whose names end in a suffix, sorted: the example
 * submissions of an exercise (the .cu files of examples/ok), the GPUs of the performance model
 * (the .ini files of kernels/gpus).  No recursion, no hidden files.
 *
 * Call order: lab_dirlist appends to a lab_strvec the caller owns and releases.
 */
#ifndef LAB_UTIL_DIRLIST_H
#define LAB_UTIL_DIRLIST_H

#include <stdbool.h>

#include "lab/util/strvec.h"

/* Appends, sorted, each name in dir that ends in suffix (and is longer than it), as
 * "dir/name" (with_dir) or as the name less the suffix.  A folder that cannot be read adds
 * nothing: 0.  LAB_ENOMEM when out of memory. */
int lab_dirlist(const char *dir, const char *suffix, bool with_dir, lab_strvec *out);

#endif
