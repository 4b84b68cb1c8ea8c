/*
 * modelcache.h - the baseline's and the reference's counts for the performance model, kept
 * between gradings (docs/design/grading.md, "the model's run").
 *
 * On the simulator a speed exercise's grading runs the student's, the baseline's and the
 * reference's kernels at two sizes for their counts (lab/grade/beside.c).  The baseline's and
 * the reference's builds do not change while a student edits, and the model's run uses fixed
 * inputs (LAB_MODELCACHE_SEED), so their counts are the same every time: the first grading keeps
 * them under a key of everything the run depends on but the student's kernel, and later
 * gradings run the student's kernel alone and add the kept counts to its report.
 *
 *     char key[LAB_HASH_HEX]; lab_buf kept;
 *     lab_modelcache_key(libexecdir, builddir, program, &args, key);   (args: the model run's)
 *     if (lab_modelcache_load(cachedir, key, &kept)) ... run --student-only, then
 *         lab_modelcache_merge(&report, kept.buf, kept.len, err);
 *     else ... run all roles, then lab_modelcache_store(cachedir, key, report, len);
 */
#ifndef LAB_GRADE_MODELCACHE_H
#define LAB_GRADE_MODELCACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "lab/util/buf.h"
#include "lab/util/err.h"
#include "lab/util/hash.h"
#include "lab/util/strvec.h"

/* The inputs' seed of every model run: the counts of the same kernels on the same inputs. */
#define LAB_MODELCACHE_SEED 1

/* The key of a model run of program (a family) with args: every argument but the student's own
 * (--student=, --globals=), and the size and time of change of the driver and of every file an
 * argument names (the lab's kernels) outside builddir, whose modules are named by their content
 * (and touched on each use by the cache's eviction). */
void lab_modelcache_key(const char *libexecdir, const char *builddir, const char *program,
                        const lab_strvec *args, char key[LAB_HASH_HEX]);
/* The kept counts for key into *out (replacing it): true, or false when none are kept or the
 * file does not parse. */
bool lab_modelcache_load(const char *cachedir, const char *key, lab_buf *out);
/* Keeps the counts (sim_metrics) and cases of every role but the student's from a model run's
 * report, when the report has both roles' counts; a failure to keep them is not an error (the
 * next grading runs them again). */
void lab_modelcache_store(const char *cachedir, const char *key, const char *report, size_t len);
/* Adds the kept entries to a student-only report, in place. */
int lab_modelcache_merge(lab_buf *report, const char *kept, size_t len, lab_err *err);

#endif
