/*
 * trace.h - a timeline of one grading across the lab and its child processes.
 *
 * When CUDALAB_TRACE names a file, each process that calls lab_trace_start()
 * appends one line per mark to it: "SECONDS PID PROGRAM WHAT", SECONDS on the
 * wall clock (CLOCK_REALTIME, so that a script's `date +%s.%N` before the
 * command lines up), each line one write(2) in O_APPEND mode, so that the lab,
 * its drivers and the simulator's check interleave whole lines.  Without the
 * variable every mark is a no-op.  tests/bench/latency.sh lays a trace out.
 */
#ifndef LAB_UTIL_TRACE_H
#define LAB_UTIL_TRACE_H

#include "lab/util/err.h"

/* Opens $CUDALAB_TRACE (if set and not empty) for this process, which is named
 * PROGRAM in its lines, and marks "start".  0, or <0 when the file cannot be
 * opened (err says why). */
int lab_trace_start(const char *program, lab_err *err);

/* One line for this moment: WHAT, printf-style. */
void lab_trace_mark(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
