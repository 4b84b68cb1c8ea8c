/*
 * env.h - the CUDALAB_* variables that steer the lab, checked once when it
 * opens (lab_open), so that a bad value is a lab error naming the variable
 * (exit 2) and never reaches a grading, where it would end as the student's
 * verdict (CUDALAB_ARCH=sm_10 made every build a COMPILE_ERROR).
 *
 * One table row per variable: its name, the check and what a good value looks
 * like.  Unset or empty variables are not checked: they mean "the default".
 * Variables that name a tool (CUDALAB_NVCC, CUDALAB_NCU, ...) are checked where
 * the tool is looked for (lab/build/toolchain.h), so that a command that needs
 * no tool still runs.
 */
#ifndef LAB_GRADE_ENV_H
#define LAB_GRADE_ENV_H

#include <stdbool.h>

#include "lab/util/err.h"

/* 0, or LAB_EINVAL naming the first variable that is wrong and what it should be. */
int lab_env_check(lab_err *err);

/* A positive decimal number of at most max, and nothing else ("-1", "1e6", " 5" are not). */
bool lab_env_parse_count(const char *s, unsigned long max, unsigned long *out);

#endif
