/*
 * grade.h - the grading policy: verdicts, what each means, and how a
 * driver's report becomes a verdict with a one-line cause and points.
 *
 * Correctness first, on every case; then speed at the largest timed size:
 * speedup = baseline median / student median, and its fraction of the
 * reference's speedup.  PASS needs speedup >= min_speedup and fraction >=
 * min_fraction_of_reference (docs/design/grading-policy.md).  A choice exercise
 * (choose_block) is graded on its sweep instead: PASS when the student's shape
 * is within noise of the fastest shape's median (lab_grade_choice_noise).  Points: all on
 * PASS, half (rounded down) on SLOW - correct but not yet fast - else none.
 */
#ifndef LAB_GRADE_POLICY_H
#define LAB_GRADE_POLICY_H

#include <stdbool.h>

#include "lab/catalog/catalog.h"
#include "lab/util/err.h"
#include "lab/grade/runreport.h"

typedef enum lab_verdict {
    LAB_VERDICT_PASS,
    LAB_VERDICT_WRONG,
    LAB_VERDICT_SLOW,
    LAB_VERDICT_COMPILE_ERROR,
    LAB_VERDICT_RUNTIME_ERROR,
    LAB_VERDICT_TIMEOUT,
    LAB_VERDICT_CONSTRAINT,
    LAB_VERDICT_NO_GPU,
    LAB_VERDICT_SIM_UNSUPPORTED,
    LAB_VERDICT_COUNT
} lab_verdict;

/* What a verdict says about the attempt, for how the front ends show it. */
typedef enum lab_verdict_tone {
    LAB_TONE_PASS,   /* PASS */
    LAB_TONE_SLOW,   /* SLOW: correct, not yet fast */
    LAB_TONE_FAIL,   /* WRONG, COMPILE_ERROR, RUNTIME_ERROR */
    LAB_TONE_LIMIT,  /* TIMEOUT, CONSTRAINT: a limit of the task hit */
    LAB_TONE_NO_GPU, /* NO_GPU, SIM_UNSUPPORTED: nothing here could run it; no fault of the code */
    LAB_TONE_COUNT
} lab_verdict_tone;

typedef struct lab_verdict_info {
    const char *name;      /* "PASS" */
    int exit_status;       /* of `cudalab grade` */
    lab_verdict_tone tone; /* lab/report/style.h makes it a style */
    const char *advice;    /* one line: what to do next */
} lab_verdict_info;

const lab_verdict_info *lab_verdict_describe(lab_verdict v);
/* Parses "PASS", ... ; LAB_EINVAL for anything else. */
int lab_verdict_parse(const char *name, lab_verdict *out);

/* The kinds of WRONG the grader tells apart, each with its own next step. */
typedef enum lab_wrong_kind {
    LAB_WRONG_VALUE,      /* a kernel's output differs from the reference's */
    LAB_WRONG_HOST_VALUE, /* a host function's answer differs from the expected one */
    LAB_WRONG_REPLAYED,   /* right once, then wrong on new inputs or when timed */
    LAB_WRONG_TOO_FAST,   /* a time no kernel that reads its input can reach */
    LAB_WRONG_BY_LUCK, /* right on the GPU, but the simulator's check found undefined behaviour */
    LAB_WRONG_COUNT
} lab_wrong_kind;

/* What to do next about a WRONG of this kind whose finding is check (the simulator's check
 * that fired, or NULL) and detail: the finding's own advice where it has one and the kind lets
 * it speak (a replay's "never written" is the replay's fault, not the store's), else the
 * kind's.  Static text. */
const char *lab_grade_wrong_advice(lab_wrong_kind kind, const char *check, const char *detail);

typedef struct lab_grade_result {
    lab_verdict verdict;
    char message[512]; /* the cause, one line */
    double speedup;    /* over the baseline; 0 when not timed */
    double reference_speedup;
    double fraction;  /* speedup / reference_speedup */
    double median_ns; /* student, largest timed size */
    int points;
    const char *advice; /* what to do next about this finding (static); NULL: the verdict's */
} lab_grade_result;

/* Set a verdict that needs no report (compile error, timeout, ...). */
void lab_grade_set(lab_grade_result *out, const lab_exercise *ex, lab_verdict v, const char *fmt,
                   ...) __attribute__((format(printf, 4, 5)));
/* Adds a remark to a verdict's message (cut where the message is full). */
void lab_grade_append(lab_grade_result *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A printf flood: the run stopped after bytes of output (the driver's stdout on a GPU, or the
 * simulator's printf at n = size; 0: not known), RUNTIME_ERROR naming it, with its advice. */
void lab_grade_printf_flood(lab_grade_result *out, const lab_exercise *ex, double bytes,
                            unsigned long size, bool sim);

/* How far (relative) a choice's median may lie above the fastest's and still count as a tie:
 * twice both medians' 95 % intervals, and at least 2 %, since medians of separate processes
 * differ by up to 1.7 % (docs/design/timing.md). */
#define LAB_GRADE_CHOICE_FLOOR 0.02
double lab_grade_choice_noise(const lab_sweep_row *choice, const lab_sweep_row *best);
/* The fastest launched row of a sweep, or NULL. */
const lab_sweep_row *lab_grade_sweep_best(const lab_sweep *s);

/* A measured time may imply at most this fraction of the GPU's peak memory bandwidth
 * (2 x memory clock x bus width) for the bytes a correct kernel must move: the best kernels
 * reach 92 % on the H100 (docs/bench/reduce.md); past the margin the time is impossible for a
 * kernel that reads its input, and the verdict says so. */
#define LAB_GRADE_PEAK_MARGIN 1.10

/* Judge a parsed driver report.  Fails (LAB_EDEVICE, LAB_EPARSE) only when
 * the lab itself is at fault: the reference or baseline failed or was wrong,
 * or the report lacks what the verdict needs. */
int lab_grade_judge(const lab_exercise *ex, const char *baseline_name, const lab_runreport *r,
                    lab_grade_result *out, lab_err *err);

#endif
