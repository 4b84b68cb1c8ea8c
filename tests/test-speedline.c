/*
 * test-speedline.c - the line a step gets on the GPU at hand (lab/grade/speedline.h), on the
 * speed-ups measured on GPUs: every exercise's reference over its baseline on the H100 (20
 * gradings each, docs/h100/repeat-20.md, 2026-11-26: the smallest and the largest of the 20),
 * and the three steps whose references did not pass on an H200 (issue 31, on b6292df).
 *
 * What must hold on each: the reference passes its own line even when noise takes half the
 * line's margin off its speed-up; the untouched starter of a step it keeps out by speed (the
 * step before's kernel, measured at most 1.0053x against itself on the H100) does not; no line
 * is above the manifest's; and where the reference gains less than twice the noise, the line is
 * "match the reference".
 */
#include "lab/grade/speedline.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>

/* An unchanged kernel timed against itself, at most (H100, 60 gradings). */
#define UNCHANGED 1.0053

typedef struct measured {
    char exercise[40];
    double min_speedup, min_fraction;     /* the manifest's */
    double lo, hi;                        /* the reference's speed-up, smallest and largest */
    bool starter_by_speed;                /* the untouched starter is kept out by its speed alone */
    lab_line_source source_lo, source_hi; /* the line's, at each end */
} measured;

ParameterizedTestParameters(speedline, h100)
{
    static measured m[] = {
        /* half-way to 1.198x is 1.099x, just under the manifest's 1.10x */
        { "divergence/evenodd", 1.10, 0.90, 1.198, 1.204, true, LAB_LINE_THIS_GPU,
          LAB_LINE_MANIFEST },
        { "divergence/soa", 1.25, 0.85, 1.531, 1.539, true, LAB_LINE_MANIFEST, LAB_LINE_MANIFEST },
        { "divergence/halfhalf-shared", 1.03, 0.95, 1.112, 1.118, false, LAB_LINE_MANIFEST,
          LAB_LINE_MANIFEST },
        { "divergence/evenodd-shared", 1.03, 0.95, 1.128, 1.138, false, LAB_LINE_MANIFEST,
          LAB_LINE_MANIFEST },
        { "reduction/single-pass", 1.05, 0.90, 1.115, 1.128, false, LAB_LINE_MANIFEST,
          LAB_LINE_MANIFEST },
        { "reduction/neighbored-less", 1.10, 0.75, 1.820, 1.823, true, LAB_LINE_MANIFEST,
          LAB_LINE_MANIFEST },
        { "reduction/interleaved", 1.10, 0.75, 1.221, 1.225, true, LAB_LINE_MANIFEST,
          LAB_LINE_MANIFEST },
        { "reduction/unrolling2", 1.30, 0.75, 1.737, 1.746, false, LAB_LINE_MANIFEST,
          LAB_LINE_MANIFEST },
        { "reduction/unrolling4", 1.25, 0.75, 1.576, 1.609, false, LAB_LINE_MANIFEST,
          LAB_LINE_MANIFEST },
        { "reduction/unrolling8", 1.10, 0.75, 1.288, 1.303, false, LAB_LINE_MANIFEST,
          LAB_LINE_MANIFEST },
        { "reduction/unroll-warps8", 0.90, 0.85, 1.012, 1.020, false, LAB_LINE_MANIFEST,
          LAB_LINE_MANIFEST },
        { "reduction/complete-unroll-warps8", 0.95, 0.85, 0.998, 1.005, false, LAB_LINE_MANIFEST,
          LAB_LINE_MANIFEST },
        { "reduction/complete-unroll", 0.95, 0.85, 0.998, 1.004, false, LAB_LINE_MANIFEST,
          LAB_LINE_MANIFEST },
        { "reduction/sum-atomic", 0.10, 0.50, 0.433, 0.679, false, LAB_LINE_MANIFEST,
          LAB_LINE_MANIFEST },
        { "reduction/sum-shared-atomic", 4.0, 0.50, 11.359, 11.375, false, LAB_LINE_MANIFEST,
          LAB_LINE_MANIFEST },
        { "reduction/sum-tournament", 4.0, 0.50, 10.860, 10.882, false, LAB_LINE_MANIFEST,
          LAB_LINE_MANIFEST },
        { "reduction/sum-reversed", 1.50, 0.70, 2.219, 2.225, true, LAB_LINE_MANIFEST,
          LAB_LINE_MANIFEST },
        { "reduction/sum-add-first", 1.30, 0.70, 1.792, 1.804, true, LAB_LINE_MANIFEST,
          LAB_LINE_MANIFEST },
        /* half-way to 1.228x is 1.114x: just under the manifest's 1.12x */
        { "reduction/sum-last-warp", 1.12, 0.80, 1.228, 1.236, false, LAB_LINE_THIS_GPU,
          LAB_LINE_THIS_GPU },
        { "reduction/sum-shuffle", 0.95, 0.85, 1.048, 1.055, false, LAB_LINE_MANIFEST,
          LAB_LINE_MANIFEST },
        { "reduction/sum-two-level", 0.75, 0.85, 0.872, 0.886, false, LAB_LINE_MANIFEST,
          LAB_LINE_MANIFEST },
    };
    return cr_make_param_array(measured, m, sizeof(m) / sizeof(m[0]));
}

/* The properties every line must have, at a measured speed-up r of the reference. */
static void
holds(const measured *m, double r, lab_line_source want)
{
    lab_speed_line l;
    double margin;

    lab_speed_line_for(m->min_speedup, m->min_fraction, r, LAB_SPEED_LINE_NOISE_FLOOR, &l);
    cr_expect_eq(l.source, want, "%s at %.3fx: source %s", m->exercise, r,
                 lab_line_source_name(l.source));
    cr_expect_leq(l.min_speedup, m->min_speedup, "%s: never above the manifest", m->exercise);
    cr_expect_float_eq(l.reference_speedup, r, 1e-12);
    if (l.source == LAB_LINE_MATCH_REFERENCE) {
        cr_expect_leq(l.min_fraction, 1 - l.noise, "%s: the reference matches itself", m->exercise);
        return;
    }
    cr_expect_float_eq(l.min_fraction, m->min_fraction, 1e-12);
    /* the reference, its speed-up cut by half its margin over the line, still passes */
    margin = r - l.min_speedup;
    cr_expect_gt(margin, 0, "%s at %.3fx: the reference is over its line %.3fx", m->exercise, r,
                 l.min_speedup);
    cr_expect_geq(r - margin / 2, l.min_speedup, "%s", m->exercise);
    if (m->starter_by_speed)
        cr_expect_lt(UNCHANGED, l.min_speedup, "%s at %.3fx: the starter (<= %.4fx) passes %.3fx",
                     m->exercise, r, UNCHANGED, l.min_speedup);
}

ParameterizedTest(measured *m, speedline, h100)
{
    holds(m, m->lo, m->source_lo);
    holds(m, m->hi, m->source_hi);
}

/* The H200 of issue 31 (b6292df, `tests/gpu/repeat.sh 1`): the three references that did not
 * pass the H100's lines. */
Test(speedline, h200_references_pass_and_the_lesson_that_does_not_show_is_said)
{
    const measured halfhalf_shared = {
        "divergence/halfhalf-shared", 1.03, 0.95, 0.99, 0.99, false, LAB_LINE_MATCH_REFERENCE,
        LAB_LINE_MATCH_REFERENCE
    };
    const measured evenodd = {
        "divergence/evenodd", 1.10, 0.90, 1.091, 1.091, true, LAB_LINE_THIS_GPU, LAB_LINE_THIS_GPU
    };
    lab_speed_line l;

    holds(&halfhalf_shared, 0.99, LAB_LINE_MATCH_REFERENCE);
    holds(&evenodd, 1.091, LAB_LINE_THIS_GPU);
    lab_speed_line_for(1.10, 0.90, 1.091, LAB_SPEED_LINE_NOISE_FLOOR, &l);
    cr_expect_float_eq(l.min_speedup, 1.0455, 1e-9, "half-way from 1x to 1.091x");
    /* evenodd-shared's 1.02x sits at twice the noise: on either side, its reference passes */
    for (double r = 1.019; r <= 1.0211; r += 0.001) {
        lab_speed_line_for(1.03, 0.95, r, LAB_SPEED_LINE_NOISE_FLOOR, &l);
        if (l.source == LAB_LINE_MATCH_REFERENCE)
            cr_expect_geq(1.0, l.min_fraction, "at %.3fx", r);
        else
            cr_expect_geq(r, l.min_speedup, "at %.3fx", r);
    }
}

Test(speedline, noise_has_a_floor_and_grows_with_the_medians_intervals)
{
    /* the recorded H100 reports: medians within 0.03 % (tests/fixtures/reports) */
    cr_expect_float_eq(lab_speed_line_noise(9.37e-5, 2.85e-4), LAB_SPEED_LINE_NOISE_FLOOR, 1e-12);
    /* a CPU baseline's 1.9 % (nb-ref.json): twice the sum */
    cr_expect_float_eq(lab_speed_line_noise(0.0191, 9.37e-5), 2 * (0.0191 + 9.37e-5), 1e-12);
    cr_expect_float_eq(lab_speed_line_noise(0, -1), LAB_SPEED_LINE_NOISE_FLOOR, 1e-12);
}

Test(speedline, a_noisy_run_needs_a_larger_gain_to_show)
{
    lab_speed_line l;

    lab_speed_line_for(1.10, 0.75, 1.05, 0.01, &l);
    cr_expect_eq(l.source, LAB_LINE_THIS_GPU);
    lab_speed_line_for(1.10, 0.75, 1.05, 0.03, &l); /* 5 % is within twice a 3 % noise */
    cr_expect_eq(l.source, LAB_LINE_MATCH_REFERENCE);
    cr_expect_float_eq(l.min_fraction, 0.94, 1e-12);
}

Test(speedline, a_baseline_not_timed_leaves_the_fraction_alone)
{
    lab_speed_line l;

    lab_speed_line_for(1.10, 0.5, 0, 0.01, &l);
    cr_expect_eq(l.source, LAB_LINE_MANIFEST);
    cr_expect_float_eq(l.min_speedup, 0, 1e-12);
    cr_expect_float_eq(l.min_fraction, 0.5, 1e-12);
    cr_expect_str_eq(lab_line_source_name(LAB_LINE_MATCH_REFERENCE), "match-reference");
    cr_expect_str_eq(lab_line_source_name(LAB_LINE_SOURCE_COUNT), "");
}
