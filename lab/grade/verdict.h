/*
 * verdict.h - the verdicts, what each means, and the result of a grading: its verdict, a
 * one-line cause, the speeds it was judged on, the line they were held to, and points.
 *
 * One row per verdict (name, exit status, tone, one line of advice) and one per kind of WRONG;
 * the judge that picks a verdict is lab/grade/policy.h.  Points: all on PASS, half (rounded down)
 * on SLOW - correct but not yet fast - and on a correct kernel whose speed could not be decided
 * without a GPU (lab_grade_points_correct), else none.
 */
#ifndef LAB_GRADE_VERDICT_H
#define LAB_GRADE_VERDICT_H

#include <stdbool.h>

#include "lab/catalog/catalog.h"
#include "lab/grade/speedline.h"

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

/* The advice of the table of findings (a check's name, or words of a detail or an error) for
 * check or text; NULL: none of the table's.  Static text. */
const char *lab_grade_finding_advice(const char *check, const char *text);
/* What to do next about a launch the device refused. */
extern const char lab_grade_launch_advice[];

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
    const char *advice;  /* what to do next about this finding (static); NULL: the verdict's */
    lab_speed_line line; /* the line the speeds were held to (source LAB_LINE_NONE: none) */
    double model_band;   /* on modelled times: the model's error band applied (a fraction) */
} lab_grade_result;

/* Set a verdict that needs no report (compile error, timeout, ...). */
void lab_grade_set(lab_grade_result *out, const lab_exercise *ex, lab_verdict v, const char *fmt,
                   ...) __attribute__((format(printf, 4, 5)));
/* The points of a verdict: all on PASS, half (rounded down) on SLOW, none otherwise. */
int lab_grade_points(const lab_exercise *ex, lab_verdict v);
/* The points of a kernel shown correct whose speed could not be decided here (too close to
 * call, or not modelled, without a GPU): what SLOW gives, the correctness it showed, so that
 * what the lab cannot measure never costs more than a slow kernel. */
int lab_grade_points_correct(const lab_exercise *ex);
/* Adds a remark to a verdict's message (cut where the message is full). */
void lab_grade_append(lab_grade_result *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A printf flood: the run stopped after bytes of output (the driver's stdout on a GPU, or the
 * simulator's printf at n = size; 0: not known), RUNTIME_ERROR naming it, with its advice. */
void lab_grade_printf_flood(lab_grade_result *out, const lab_exercise *ex, double bytes,
                            unsigned long size, bool sim);

#endif
