/*
 * calib.h - per-GPU speed thresholds (`cudalab calibrate`).
 *
 * The manifests' min_speedup values were set from noise measured on one GPU
 * (docs/design/grading-policy.md: an unchanged kernel measures <= 1.0053x against
 * itself on the H100, so 1.10x separates an untouched starter from a real
 * step).  A step may gain less on another GPU; calibrate grades each
 * reference solution there and stores, per device name and clocks, the
 * reference's speedup and the threshold derived from it:
 *     min_speedup = clamp(1 + (reference_speedup - 1) / 2,  0.95,  manifest's min_speedup)
 * i.e. half-way between "unchanged" and the reference, never stricter than
 * the manifest, and no lower than "not slower" (0.95: noise, docs/design/grading-policy.md).
 * Gradings on a calibrated GPU use the stored threshold; elsewhere the
 * manifest's applies.
 *
 * Storage: table `calibration` in the progress database (its own table,
 * created on first use, outside the attempts schema), one row per
 * (device, sm_clock_khz, mem_clock_khz, exercise), replaced on recalibration.
 *
 * Call order: lab_calib_open; lab_calib_put / lab_calib_get; lab_calib_close.
 */
#ifndef LAB_GRADE_CALIB_H
#define LAB_GRADE_CALIB_H

#include <stdbool.h>

#include "lab/util/err.h"

#define LAB_CALIB_FLOOR 0.95

typedef struct lab_calib lab_calib;

typedef struct lab_calib_key {
    const char *device; /* "NVIDIA H100 80GB HBM3" */
    long sm_clock_khz;
    long mem_clock_khz;
} lab_calib_key;

typedef struct lab_calib_entry {
    double reference_speedup;
    double min_speedup;
    long long measured_at; /* unix time */
} lab_calib_entry;

/* The threshold for a reference speedup measured on this GPU. */
double lab_calib_threshold(double manifest_min_speedup, double reference_speedup);

int lab_calib_open(const char *db_path, lab_calib **out, lab_err *err);
void lab_calib_close(lab_calib *c);
int lab_calib_put(lab_calib *c, const lab_calib_key *k, const char *exercise,
                  const lab_calib_entry *e, lab_err *err);
/* 0 with *found false when this GPU has no calibration for exercise. */
int lab_calib_get(lab_calib *c, const lab_calib_key *k, const char *exercise, lab_calib_entry *out,
                  bool *found, lab_err *err);

#endif
