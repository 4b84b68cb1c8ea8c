/*
 * test-calib.c - the calibration table (lab/grade/calib.h) on a real SQLite
 * file: thresholds, keys by device and clocks, replacement, persistence, and
 * sharing the file with the progress store.
 */
#include "lab/grade/calib.h"
#include "lab/grade/store.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/cudalab-test-calib.XXXXXX";
static char db[256];

static void
setup(void)
{
    cr_assert_not_null(mkdtemp(dir));
    snprintf(db, sizeof(db), "%s/progress.db", dir);
}

static void
teardown(void)
{
    unlink(db);
    rmdir(dir);
}

struct threshold_case {
    double manifest, reference, want;
};

ParameterizedTestParameters(calib, threshold)
{
    static struct threshold_case cases[] = {
        { 1.10, 1.84, 1.10 },  /* the H100's neighbored-less: the manifest's line holds */
        { 1.10, 1.15, 1.075 }, /* a small gain: half-way to the reference */
        { 1.10, 1.00, 1.00 },  /* no gain on this GPU: not slower */
        { 1.10, 0.80, 0.95 },  /* slower reference: the floor */
        { 1.50, 4.37, 1.50 },
    };
    return cr_make_param_array(struct threshold_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct threshold_case *c, calib, threshold)
{
    cr_expect_float_eq(lab_calib_threshold(c->manifest, c->reference), c->want, 1e-9,
                       "manifest %.2f reference %.2f", c->manifest, c->reference);
}

Test(calib, put_get_by_device_and_clocks, .init = setup, .fini = teardown)
{
    lab_err err = LAB_ERR_INIT;
    lab_calib *c;
    lab_calib_key h100 = { "NVIDIA H100 80GB HBM3", 1980000, 2619000 };
    lab_calib_key h100_slow = { "NVIDIA H100 80GB HBM3", 1410000, 2619000 };
    lab_calib_key a100 = { "NVIDIA A100-SXM4-40GB", 1980000, 2619000 };
    lab_calib_entry e = { 1.84, 1.10, 1700000000 }, got;
    bool found;

    cr_assert_eq(lab_calib_open(db, &c, &err), 0, "%s", err.msg);
    cr_assert_eq(lab_calib_put(c, &h100, "reduction/neighbored-less", &e, &err), 0, "%s", err.msg);
    cr_assert_eq(lab_calib_get(c, &h100, "reduction/neighbored-less", &got, &found, &err), 0);
    cr_expect(found);
    cr_expect_float_eq(got.reference_speedup, 1.84, 1e-12);
    cr_expect_float_eq(got.min_speedup, 1.10, 1e-12);
    cr_expect_eq(got.measured_at, 1700000000);
    /* another clock, another device, another exercise: not found */
    cr_assert_eq(lab_calib_get(c, &h100_slow, "reduction/neighbored-less", &got, &found, &err), 0);
    cr_expect_not(found);
    cr_assert_eq(lab_calib_get(c, &a100, "reduction/neighbored-less", &got, &found, &err), 0);
    cr_expect_not(found);
    cr_assert_eq(lab_calib_get(c, &h100, "reduction/neighbored", &got, &found, &err), 0);
    cr_expect_not(found);
    /* recalibration replaces */
    e.reference_speedup = 1.20;
    e.min_speedup = 1.10;
    cr_assert_eq(lab_calib_put(c, &h100, "reduction/neighbored-less", &e, &err), 0);
    lab_calib_close(c);
    /* and persists */
    cr_assert_eq(lab_calib_open(db, &c, &err), 0);
    cr_assert_eq(lab_calib_get(c, &h100, "reduction/neighbored-less", &got, &found, &err), 0);
    cr_expect(found);
    cr_expect_float_eq(got.reference_speedup, 1.20, 1e-12);
    lab_calib_close(c);
}

Test(calib, shares_the_progress_store, .init = setup, .fini = teardown)
{
    lab_err err = LAB_ERR_INIT;
    lab_store *st;
    lab_calib *c;
    lab_attempt a = { 0 };
    lab_progress p;
    lab_calib_key k = { "GPU", 1, 2 };
    lab_calib_entry e = { 1.5, 1.1, 1 }, got;
    bool found;

    cr_assert_eq(lab_store_open(db, &st, &err), 0, "%s", err.msg);
    cr_assert_eq(lab_calib_open(db, &c, &err), 0, "%s", err.msg);
    cr_assert_eq(lab_calib_put(c, &k, "x/y", &e, &err), 0, "%s", err.msg);
    a.exercise = "x/y";
    a.verdict = "PASS";
    a.time = 1;
    cr_assert_eq(lab_store_add_attempt(st, &a, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(lab_store_progress(st, "x/y", &p, &err), 0, "%s", err.msg);
    cr_expect_eq(p.attempts, 1);
    cr_assert_eq(lab_calib_get(c, &k, "x/y", &got, &found, &err), 0);
    cr_expect(found);
    lab_calib_close(c);
    lab_store_close(st);
    /* the store reopens with the calibration table in it */
    cr_assert_eq(lab_store_open(db, &st, &err), 0, "%s", err.msg);
    lab_store_close(st);
}

Test(calib, open_fails_clearly, .init = setup, .fini = teardown)
{
    lab_err err = LAB_ERR_INIT;
    lab_calib *c = NULL;
    char bad[300];

    snprintf(bad, sizeof(bad), "%s/no/such/dir/x.db", dir);
    cr_expect_eq(lab_calib_open(bad, &c, &err), LAB_ESTORE);
    cr_expect_null(c);
    cr_expect(strstr(err.msg, "cannot open the calibration") != NULL, "%s", err.msg);
}
