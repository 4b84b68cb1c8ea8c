/*
 * test-ncu.c - Nsight Compute CSV (`--csv --page raw`) read right, and the
 * profile's launches mapped to student, previous step and reference.
 *
 * The fixture is tests/fixtures/ncu/reduction-h100.csv when recorded on the
 * H100 (tests/gpu/run-profile.sh), else the hand-written one (README there).
 * The edge cases below are synthetic strings for single parsing rules.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lab/util/buf.h"
#include "lab/instruments/metrics.h"
#include "lab/instruments/ncu.h"
#include "lab/instruments/profile.h"

static const char *
fixture(void)
{
    return "tests/fixtures/ncu/reduction-h100.csv"; /* recorded on the H100 (README.md) */
}

/* Counters the reduction chapter asks for that were added after the fixture was recorded: the
 * strided tournament's bank conflicts (issue 37), which Nsight Compute reported on an H200
 * (docs/h200/x4-2026-11-28/new-steps-profile-reduction-sum-tournament-strided.txt) and which the
 * next recording on a GPU adds (tests/gpu/run-profile.sh). */
static const char *const not_in_fixture[] = { "bank_conflicts" };

static bool
recorded(const lab_metric *m)
{
    for (size_t i = 0; i < sizeof(not_in_fixture) / sizeof(not_in_fixture[0]); i++)
        if (!strcmp(m->key, not_in_fixture[i]))
            return false;
    return true;
}

static void
load_profile(lab_profiling *p)
{
    lab_buf csv = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;

    lab_profiling_init(p);
    cr_assert_eq(lab_metrics_for_chapter(".", "reduction", &p->set, &err), 0, "%s", err.msg);
    snprintf(p->kernel[LAB_PROF_STUDENT], sizeof(p->kernel[0]), "reduceNeighboredLess");
    snprintf(p->kernel[LAB_PROF_BASELINE], sizeof(p->kernel[0]), "reduceNeighbored");
    snprintf(p->kernel[LAB_PROF_REFERENCE], sizeof(p->kernel[0]), "reduceNeighboredLess");
    cr_assert_eq(lab_buf_read_file(&csv, fixture(), &err), 0, "%s", err.msg);
    cr_assert_eq(lab_profile_read_csv(p, csv.buf, &err), 0, "%s", err.msg);
    lab_buf_release(&csv);
}

Test(ncu, fixture_has_every_reduction_metric)
{
    lab_buf csv = LAB_BUF_INIT;
    lab_ncu_table t = LAB_NCU_TABLE_INIT;
    lab_metric_set set;
    lab_err err = LAB_ERR_INIT;

    cr_assert_eq(lab_buf_read_file(&csv, fixture(), &err), 0, "%s", err.msg);
    cr_assert_eq(lab_ncu_parse(csv.buf, &t, &err), 0, "%s", err.msg);
    cr_assert_eq(lab_metrics_for_chapter(".", "reduction", &set, &err), 0, "%s", err.msg);
    for (size_t i = 0; i < set.n; i++)
        if (recorded(set.v[i]))
            cr_expect_geq(lab_ncu_column(&t, set.v[i]->ncu), 0, "%s missing", set.v[i]->ncu);
    cr_expect_geq(t.nlaunches, 3);
    cr_expect_str_eq(t.launches[0].kernel, "reduceNeighboredLess");
    lab_ncu_table_release(&t);
    lab_buf_release(&csv);
}

Test(ncu, roles_by_launch_order_and_sane_values)
{
    lab_profiling p;

    load_profile(&p);
    for (int r = 0; r < LAB_PROF_ROLES; r++)
        cr_expect(p.has[r], "role %s", lab_prof_role_names[r]);
    for (size_t m = 0; m < p.set.n; m++) {
        const lab_metric *mt = p.set.v[m];
        if (!recorded(mt))
            continue;
        cr_expect(p.has_value[LAB_PROF_STUDENT][m], "%s", mt->key);
        if (!strcmp(mt->unit, "%"))
            cr_expect(p.value[LAB_PROF_STUDENT][m] >= 0 && p.value[LAB_PROF_STUDENT][m] <= 100,
                      "%s = %g", mt->key, p.value[LAB_PROF_STUDENT][m]);
        if (!strcmp(mt->key, "inst_per_warp"))
            /* the notes' point: rearranging the index cuts the instructions per warp */
            cr_expect_lt(p.value[LAB_PROF_STUDENT][m], p.value[LAB_PROF_BASELINE][m]);
        if (!strcmp(mt->key, "dram_read"))
            /* 2^24 ints are read at least once */
            cr_expect_geq(p.value[LAB_PROF_STUDENT][m], 67108864.0 * 0.99);
    }
    lab_profiling_release(&p);
}

Test(ncu, thousands_separators_na_quotes_and_noise)
{
    const char *csv = "program output, with \"quotes\"\n"
                      "==PROF== Connected\n"
                      "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\","
                      "\"Context\",\"Stream\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\","
                      "\"a.sum\",\"b.pct\"\r\n"
                      "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"byte\",\"%\"\r\n"
                      "\"0\",\"1\",\"p\",\"h\",\"k(int *, \"\"x\"\")\",\"1\",\"7\",\"(512, 1, 1)\","
                      "\"(4, 1, 1)\",\"0\",\"9.0\",\"10,240,000\",\"n/a\"\r\n";
    lab_ncu_table t = LAB_NCU_TABLE_INIT;
    lab_err err = LAB_ERR_INIT;
    double v;

    cr_assert_eq(lab_ncu_parse(csv, &t, &err), 0, "%s", err.msg);
    cr_assert_eq(t.nmetrics, 2);
    cr_expect_str_eq(t.units[0], "byte");
    cr_assert_eq(t.nlaunches, 1);
    cr_expect_str_eq(t.launches[0].kernel, "k");
    cr_expect(lab_ncu_value(&t, "k", "a.sum", &v));
    cr_expect_float_eq(v, 10240000.0, 1e-6);
    cr_expect_not(lab_ncu_value(&t, "k", "b.pct", &v), "n/a is no value");
    cr_expect_not(lab_ncu_value(&t, "k", "c.sum", &v));
    cr_expect_not(lab_ncu_value(&t, "other", "a.sum", &v));
    lab_ncu_table_release(&t);
}

/* A fixed bug found by fuzzing (# 19): a units row shorter than the header gave strdup the
 * row's NULL end (and read past it); the missing units are empty. */
Test(ncu, a_short_units_row_leaves_the_rest_empty)
{
    const char *csv = "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\","
                      "\"Context\",\"Stream\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\","
                      "\"a.sum\",\"b.pct\",\"c.sum\"\n"
                      "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"byte\"\n";
    lab_ncu_table t = LAB_NCU_TABLE_INIT;
    lab_err err = LAB_ERR_INIT;

    cr_assert_eq(lab_ncu_parse(csv, &t, &err), 0, "%s", err.msg);
    cr_assert_eq(t.nmetrics, 3);
    cr_expect_str_eq(t.units[0], "byte");
    cr_expect_str_eq(t.units[1], "");
    cr_expect_str_eq(t.units[2], "");
    lab_ncu_table_release(&t);
}

Test(ncu, no_header_is_an_error)
{
    lab_ncu_table t = LAB_NCU_TABLE_INIT;
    lab_err err = LAB_ERR_INIT;

    cr_expect_eq(lab_ncu_parse("==PROF== nothing\n", &t, &err), LAB_EPARSE);
    cr_expect(strstr(err.msg, "no ncu CSV header"));
}

Test(ncu, permission_error_is_recognised)
{
    cr_expect(lab_ncu_no_permission("==ERROR== ERR_NVGPUCTRPERM - The user does not have "
                                    "permission to access NVIDIA GPU Performance Counters on the "
                                    "target device 0."));
    cr_expect_not(lab_ncu_no_permission("==PROF== Disconnected from process 1"));
}

Test(ncu, every_metric_is_described)
{
    for (size_t i = 0; i < lab_metric_count(); i++) {
        const lab_metric *m = lab_metric_at(i);
        cr_expect(m->key && *m->key && m->ncu && strchr(m->ncu, '_') && m->nvprof && *m->nvprof &&
                      m->meaning && strlen(m->meaning) > 10,
                  "metric %zu", i);
        cr_expect_eq(lab_metric_find(m->key), m);
    }
}

Test(ncu, profile_ini_errors_name_file_and_line)
{
    char dir[] = "/tmp/test-ncu-XXXXXX";
    lab_buf path = LAB_BUF_INIT;
    lab_metric_set set;
    lab_err err = LAB_ERR_INIT;

    cr_assert_not_null(mkdtemp(dir));
    lab_buf_printf(&path, "%s/exercises/ch", dir);
    cr_assert_eq(lab_mkdir_p(path.buf, 0755, &err), 0);
    cr_expect_eq(lab_metrics_for_chapter(dir, "ch", &set, &err), 0, "no file: every metric");
    cr_expect_eq(set.n, lab_metric_count());
    lab_buf_adds(&path, "/profile.ini");
    cr_assert_eq(lab_write_file(path.buf, "[profile]\nversion = 1\nmetrics = inst_per_warp, nope\n",
                                52, &err),
                 0);
    cr_expect_eq(lab_metrics_for_chapter(dir, "ch", &set, &err), LAB_EPARSE);
    cr_expect(strstr(err.msg, "profile.ini:3: unknown metric 'nope'"), "%s", err.msg);
    unlink(path.buf);
    path.buf[path.len - strlen("/profile.ini")] = '\0';
    rmdir(path.buf);
    lab_buf_reset(&path);
    lab_buf_printf(&path, "%s/exercises", dir);
    rmdir(path.buf);
    rmdir(dir);
    lab_buf_release(&path);
}

/* issue6-sim's report format (tests/fixtures/reports/sim-metrics-issue6.json, recorded). */
Test(ncu, simulator_figures_from_the_report)
{
    lab_buf json = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    lab_profiling p;
    bool ipw = false, be = false;

    lab_profiling_init(&p);
    cr_assert_eq(lab_metrics_for_chapter(".", "reduction", &p.set, &err), 0, "%s", err.msg);
    cr_assert_eq(lab_buf_read_file(&json, "tests/fixtures/reports/sim-metrics-issue6.json", &err),
                 0, "%s", err.msg);
    lab_profile_read_report(&p, json.buf, json.len);
    cr_expect(p.sim_reported);
    for (size_t m = 0; m < p.set.n; m++) {
        if (!strcmp(p.set.v[m]->key, "inst_per_warp")) {
            ipw = true;
            cr_expect_float_eq(p.sim[LAB_PROF_STUDENT][m], 109.375, 1e-9);
            cr_expect_float_eq(p.sim[LAB_PROF_BASELINE][m], 155.0, 1e-9);
        }
        if (!strcmp(p.set.v[m]->key, "branch_efficiency")) {
            be = true;
            cr_expect_float_eq(p.sim[LAB_PROF_BASELINE][m], 70.0, 1e-9, "0.7 -> 70 %%");
        }
        if (!p.set.v[m]->sim)
            cr_expect_not(p.has_sim[LAB_PROF_STUDENT][m], "%s has no PTX figure", p.set.v[m]->key);
    }
    cr_expect(ipw && be);
    lab_profile_read_report(&p, "{\"status\":\"error\"}", 18);
    cr_expect_not(p.sim_reported);
    cr_expect(strstr(p.sim_why, "no sim_metrics"));
    lab_buf_release(&json);
    lab_profiling_release(&p);
}
