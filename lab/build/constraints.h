/*
 * constraints.h - an exercise's constraints ("forbid atomics", "require
 * warp-sync"), checked on the PTX of the student's file by meaning.
 *
 * A constraint is "forbid X" or "require X"; X is one or more alternatives
 * joined by '|', each
 *   a class of lab/build/rules.h (atomics, shared-atomics, warp-collectives,
 *   warp-sync, loops, timers), or an old spelling that stands for one (atom,
 *   shfl, loop, %clock64 ...): every PTX form of the class counts, inline PTX
 *   included, and loops are recursion too;
 *   else a raw spelling: an opcode prefix ending at a dot (ld.shared,
 *   bar.sync) or a special register (%ntid).
 *
 * A violation is described in the student's terms: the CUDA they wrote (the
 * header function their line called, as the PTX's line info names it:
 * "__reduce_add_sync", "cooperative_groups::reduce"; inline PTX by its text),
 * the source line, what the class is and why the exercise forbids it:
 *   __reduce_add_sync at redux.cu:6 is a warp collective (...), which this
 *   exercise forbids: this step passes values between threads through memory; ...
 *
 * Call order: lab_constraints_check once per grading (lab_constraints_list: every violation);
 * lab_constraints_spelling for check-exercise.
 */
#ifndef LAB_BUILD_CONSTRAINTS_H
#define LAB_BUILD_CONSTRAINTS_H

#include <stdbool.h>
#include <stddef.h>

#include "lab/util/buf.h"
#include "lab/util/err.h"

/* Checks each constraint on ptx (kernel: the exercise's kernel, for messages).  The first
 * violation: returns 1 and appends its sentence (translated) to why.  0 when all hold;
 * LAB_EINVAL for a malformed constraint, LAB_ENOMEM. */
int lab_constraints_check(const char *ptx, const char *kernel, const char *const *constraints,
                          size_t n, lab_buf *why, lab_err *err);

/* Every violation of one constraint, one sentence a line in why (as lab_constraints_check
 * says the first): their number (0: it holds), or <0 as above.  For
 * the tests, which check each form of the table on real PTX. */
int lab_constraints_list(const char *ptx, const char *kernel, const char *constraint, lab_buf *why,
                         lab_err *err);

/* Does the constraint name a class by an old spelling ("forbid atom")?  Then out gets what to
 * write instead ("forbid atomics") and true. */
bool lab_constraints_spelling(const char *constraint, lab_buf *out);

#endif
