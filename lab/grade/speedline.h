/*
 * speedline.h - the speed line a step gets on the GPU at hand (docs/design/grading-policy.md,
 * "The line follows the GPU").
 *
 * The manifests' min_speedup values were set on an H100.  Every grading times the baseline and
 * the reference interleaved with the student's kernel in one process, so the reference's own
 * speed-up over the baseline on THIS GPU (r) is measured in the same run; the line is taken
 * from it, with no instructor step:
 *
 *   noise  v = max(LAB_SPEED_LINE_NOISE_FLOOR, 2 x (ci of the baseline's median + ci of the
 *              reference's)): how far two medians of this run may drift apart by chance;
 *   a step that should gain (min_speedup > 1):
 *     r >= 1 + 2v  the lesson shows here: line = min(min_speedup, 1 + (r - 1) / 2), half-way
 *                  from "unchanged" to the reference, never stricter than the manifest; the
 *                  unchanged kernel (1 +- v/2) stays under it and the reference over it;
 *     r <  1 + 2v  the lesson does not show here: no line on the speed-up; matching the
 *                  reference is what counts (fraction of the reference >= 1 - 2v);
 *   a step graded on "not slower" (min_speedup <= 1): line = min(min_speedup, r x (1 - 2v)),
 *                  never above what the reference itself reaches here;
 *   the fraction of the reference keeps the manifest's min_fraction_of_reference, which is
 *   relative to this GPU's reference already.
 *
 * Pure arithmetic: no state, no printing.  The judge (lab/grade/policy.h) applies it to a GPU's
 * measured times, and to the performance model's times on the simulator (there with v at its
 * floor: the model has no run noise, it has an error band instead).
 */
#ifndef LAB_GRADE_SPEEDLINE_H
#define LAB_GRADE_SPEEDLINE_H

#include <stdbool.h>

/* The least noise a line allows for: an unchanged kernel timed against itself measured at most
 * 1.0053x on the H100 (60 gradings, docs/design/grading-policy.md), so 1 % is twice that. */
#define LAB_SPEED_LINE_NOISE_FLOOR 0.01

/* Where a line came from. */
typedef enum lab_line_source {
    LAB_LINE_NONE,            /* nothing timed: no line */
    LAB_LINE_MANIFEST,        /* the manifest's line holds on this GPU */
    LAB_LINE_THIS_GPU,        /* lowered towards the reference's speed-up measured here */
    LAB_LINE_MATCH_REFERENCE, /* the lesson does not show here: matching the reference counts */
    LAB_LINE_SOURCE_COUNT
} lab_line_source;

typedef struct lab_speed_line {
    lab_line_source source;
    double min_speedup;       /* over the baseline; 0 where the fraction alone decides */
    double min_fraction;      /* of the reference's speed-up */
    double manifest_speedup;  /* the manifest's min_speedup */
    double manifest_fraction; /* the manifest's min_fraction_of_reference */
    double reference_speedup; /* r, measured (or modelled) in this grading; 0: not known */
    double noise;             /* v */
} lab_speed_line;

/* "manifest", "this-gpu", "match-reference" ("" for none): the JSON's and the gradebook's. */
const char *lab_line_source_name(lab_line_source s);

/* The noise v of a run whose baseline and reference medians have these relative 95 %
 * half-widths (0 where unknown). */
double lab_speed_line_noise(double ci_baseline, double ci_reference);

/* The line for a step whose manifest asks manifest_speedup and manifest_fraction, where the
 * reference measured reference_speedup over the baseline with noise v.  reference_speedup <= 0
 * (a baseline not timed: the CPU's on the simulator): the manifest's fraction alone. */
void lab_speed_line_for(double manifest_speedup, double manifest_fraction, double reference_speedup,
                        double noise, lab_speed_line *out);

#endif
