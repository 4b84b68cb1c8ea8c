/*
 * test-modelled.c - speed on the simulator (lab/grade/modelled.h): the sizes the model's run
 * counts at, for the element and the matrix families, and below the sizes graded; and the
 * judge's verdicts on modelled times (lab/grade/policy.h), with the model's error band.
 */
#include "lab/build/ptx.h"
#include "lab/catalog/family.h"
#include "lab/grade/modelled.h"
#include "lab/grade/policy.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

Test(modelled, sizes_of_elements)
{
    const lab_family *fam = lab_family_find("reduce-int");
    unsigned long s[2];

    cr_assert_not_null(fam);
    lab_modelled_sizes(fam, 1ul << 24, s);
    cr_expect_eq(s[0], 1ul << 16);
    cr_expect_eq(s[1], LAB_MODELLED_ELEMENTS);
    lab_modelled_sizes(fam, LAB_MODELLED_ELEMENTS, s);
    cr_expect_eq(s[1], LAB_MODELLED_ELEMENTS, "the model's size itself is enough");
    /* a cap of 70000 and of 1000: halved until within, what grade.c then refuses */
    lab_modelled_sizes(fam, 70000, s);
    cr_expect_eq(s[0], 1ul << 14);
    cr_expect_eq(s[1], 1ul << 16);
    lab_modelled_sizes(fam, 1000, s);
    cr_expect_eq(s[1], 512);
}

Test(modelled, sizes_of_a_matrix_are_sides)
{
    const lab_family *fam = lab_family_find("sum-matrix");
    unsigned long s[2];

    cr_assert_not_null(fam);
    lab_modelled_sizes(fam, 100000, s);
    cr_expect_eq(s[1], lab_family_sim_limit(fam, LAB_MODELLED_ELEMENTS));
    cr_expect_eq(s[0], lab_family_sim_limit(fam, LAB_MODELLED_ELEMENTS / 4));
    cr_expect_lt(s[1], 1000, "a side, not elements");
}

/* A report of the model's run: the student and the reference at n = 1024 and 4096, a grid that
 * grows with n (2 and 8 blocks of 512), counts that grow with it: enough instructions that issue,
 * not the blocks' start, bounds them. */
static const char report[] =
    "{\"block\": 512, \"device\": {\"sm_count\": 1},"
    " \"sim_metrics\": ["
    "  {\"role\": \"student\", \"size\": 1024, \"warp_insts\": 10000, \"gld_sectors\": 128},"
    "  {\"role\": \"student\", \"size\": 4096, \"warp_insts\": 40000, \"gld_sectors\": 512},"
    "  {\"role\": \"reference\", \"size\": 1024, \"warp_insts\": 5000, \"gld_sectors\": 128},"
    "  {\"role\": \"reference\", \"size\": 4096, \"warp_insts\": 20000, \"gld_sectors\": 512}],"
    " \"cases\": ["
    "  {\"role\": \"student\", \"size\": 1024, \"grid\": 2},"
    "  {\"role\": \"student\", \"size\": 4096, \"grid\": 8},"
    "  {\"role\": \"reference\", \"size\": 1024, \"grid\": 2},"
    "  {\"role\": \"reference\", \"size\": 4096, \"grid\": 8}]}";

Test(modelled, from_report_keeps_the_simulated_counts_and_scales_them)
{
    const lab_family *fam = lab_family_find("reduce-int");
    lab_model_gpu gpu;
    lab_modelled m;
    lab_err err = LAB_ERR_INIT;

    lab_model_gpu_defaults(&gpu);
    cr_assert_eq(lab_modelled_from_report(report, sizeof(report) - 1, fam, &gpu, 1024, 4096,
                                          1 << 20, &m, &err),
                 0, "%s", err.msg);
    cr_expect_eq(m.small, 1024);
    cr_expect_eq(m.simulated, 4096);
    cr_assert(m.has[LAB_MODELLED_STUDENT] && m.has[LAB_MODELLED_REFERENCE]);
    cr_expect_not(m.has[LAB_MODELLED_BASELINE], "no baseline in the report: the CPU's");
    cr_assert(m.has_small[LAB_MODELLED_STUDENT]);
    cr_expect_float_eq(m.at_small[LAB_MODELLED_STUDENT].c[LAB_MODEL_C_WARP_INSTS], 10000, 1e-9);
    cr_expect_float_eq(m.at_big[LAB_MODELLED_STUDENT].c[LAB_MODEL_C_WARP_INSTS], 40000, 1e-9);
    cr_expect_float_eq(m.counts[LAB_MODELLED_STUDENT].c[LAB_MODEL_C_WARP_INSTS], 40000 * 256, 1e-6,
                       "2^20 / 4096: the work grew 256 times");
    cr_expect_gt(m.ns[LAB_MODELLED_STUDENT], m.ns[LAB_MODELLED_REFERENCE],
                 "twice the instructions, the same loads");
    /* without the reference's counts: no model */
    cr_expect_eq(lab_modelled_from_report(report, sizeof(report) - 1, fam, &gpu, 1024, 8192,
                                          1 << 20, &m, &err),
                 LAB_EPARSE);
}

Test(modelled, a_matrix_sweep_keeps_the_timed_sides_remainder)
{
    const lab_family *matrix = lab_family_find("sum-matrix"),
                     *elements = lab_family_find("table-map");
    unsigned long side;

    cr_assert(matrix && elements);
    side = lab_modelled_sweep_size(matrix, 4099);
    cr_expect_eq(side % 64, 4099 % 64, "rows meet the sectors as the timed matrix's do");
    cr_expect_leq(side, lab_family_sim_limit(matrix, LAB_MODELLED_ELEMENTS));
    cr_expect_gt(side + 64, lab_family_sim_limit(matrix, LAB_MODELLED_ELEMENTS));
    cr_expect_eq(lab_modelled_sweep_size(elements, 1ul << 24), LAB_MODELLED_ELEMENTS / 128);
}

Test(modelled, static_shared_memory_of_the_ptx)
{
    static const char ptx[] = ".visible .entry _Z1kPi(\n"
                              ")\n{\n"
                              "\t.reg .b32 %r<4>;\n"
                              "\t// demoted variable\n"
                              "\t.shared .align 4 .b8 _ZZ1kPiE3lut[40960];\n"
                              "\t.shared .align 4 .u32 _ZZ1kPiE4last;\n"
                              "\t.extern .shared .align 16 .b8 dyn[];\n"
                              "\tret;\n}\n";

    cr_expect_float_eq(lab_ptx_static_shared(ptx), 40964, 1e-9,
                       "a table and a scalar, not the dynamic part");
    cr_expect_float_eq(lab_ptx_static_shared("\tret;\n"), 0, 1e-9);
}

/* A sweep of a grid-stride kernel at n = 2048: blocks of 1024 and 256 threads (2 and 8 blocks,
 * each copying a 40 KiB table: 320 requests), and the graded run of the 1024 choice at two
 * sizes on a fixed grid of 528 blocks (a request per 32 elements, then the tables). */
static const char sweep[] =
    "{\"sim_metrics\": ["
    "  {\"role\": \"student\", \"size\": 2048, \"block\": \"1024\", \"warps\": 64,"
    "   \"gld_requests\": 704, \"in_bytes\": 49152},"
    "  {\"role\": \"student\", \"size\": 2048, \"block\": \"256\", \"warps\": 64,"
    "   \"gld_requests\": 2624, \"in_bytes\": 49152}],"
    " \"cases\": ["
    "  {\"role\": \"student\", \"size\": 2048, \"block\": \"1024\", \"grid\": 2},"
    "  {\"role\": \"student\", \"size\": 2048, \"block\": \"256\", \"grid\": 8}]}";
static const char graded[] =
    "{\"sim_metrics\": ["
    "  {\"role\": \"student\", \"size\": 1000, \"gld_requests\": 1},"
    "  {\"role\": \"student\", \"size\": 983040, \"gld_requests\": 199680, \"in_bytes\": 3973120},"
    "  {\"role\": \"student\", \"size\": 1048576, \"gld_requests\": 201728,"
    "   \"in_bytes\": 4235264}],"
    " \"cases\": ["
    "  {\"role\": \"student\", \"size\": 1000, \"grid\": 1},"
    "  {\"role\": \"student\", \"size\": 983040, \"grid\": 528},"
    "  {\"role\": \"student\", \"size\": 1048576, \"grid\": 528}]}";

/* The judge on modelled times: a correct run on the simulator (a report of no cases: the
 * simulator found them right) and the model's times. */
static lab_verdict
judge_modelled(const lab_exercise *ex, const lab_modelled *m, lab_grade_result *r)
{
    lab_runreport run = { .status = "ok", .backend = "sim" };
    lab_evidence ev = {
        .baseline_name = "reduceNeighbored", .report = &run, .model_asked = true, .model = m
    };
    lab_err err = LAB_ERR_INIT;

    cr_assert_eq(lab_judge(ex, &ev, r, &err), 0, "%s", err.msg);
    return r->verdict;
}

Test(modelled, a_sweep_of_one_wave_and_its_verdicts)
{
    const lab_family *fam = lab_family_find("table-map");
    lab_exercise ex = { .id = "occupancy/block-size", .points = 10 };
    lab_model_gpu gpu;
    lab_modelled m;
    lab_grade_result r;
    lab_err err = LAB_ERR_INIT;

    lab_model_gpu_defaults(&gpu);
    cr_assert_eq(lab_modelled_sweep_from_report(sweep, sizeof(sweep) - 1, graded,
                                                sizeof(graded) - 1, fam, &gpu, 2048, 1ul << 24,
                                                40960, "256", &m, &err),
                 0, "%s", err.msg);
    cr_assert(m.wave, "the graded run's grid stayed at 528: one wave");
    cr_assert_eq(m.nshapes, 2);
    cr_assert_str_eq(m.shapes[m.chosen].block, "256");
    /* the H100's wave: 2 blocks of 1024 an SM, 5 of 256 (40 KiB of shared memory each) */
    cr_expect_float_eq(m.shapes[0].counts.c[LAB_MODEL_C_BLOCKS], 264, 1e-9);
    cr_expect_float_eq(m.shapes[1].counts.c[LAB_MODEL_C_BLOCKS], 660, 1e-9);
    cr_expect_float_eq(m.shapes[1].counts.c[LAB_MODEL_C_GLD_REQUESTS], 660 * 320 + (1 << 24) / 32.0,
                       1, "a table per block, a request per 32 elements");
    cr_expect_float_eq(m.ns[LAB_MODELLED_STUDENT], m.shapes[1].ns, 1e-9);
    /* the verdicts: the fastest passes, past 5 % over it is SLOW, between the model cannot say */
    ex.choose_block = true;
    ex.ntiming_sizes = 1;
    m.shapes[0].ns = 100, m.shapes[1].ns = 104;
    cr_expect_eq(judge_modelled(&ex, &m, &r), LAB_VERDICT_NO_GPU, "%s", r.message);
    cr_expect_not_null(r.advice);
    cr_expect_eq(r.points, 5, "too close to call: a correct kernel's points, as SLOW's");
    m.shapes[1].ns = 106;
    cr_expect_eq(judge_modelled(&ex, &m, &r), LAB_VERDICT_SLOW, "%s", r.message);
    cr_expect(strstr(r.message, "modelled for an H100, not measured") != NULL, "%s", r.message);
    m.shapes[1].ns = 99;
    cr_expect_eq(judge_modelled(&ex, &m, &r), LAB_VERDICT_PASS, "%s", r.message);
    cr_expect_eq(r.points, 10);
    /* a choice the sweep has no counts of: no model */
    cr_expect_eq(lab_modelled_sweep_from_report(sweep, sizeof(sweep) - 1, graded,
                                                sizeof(graded) - 1, fam, &gpu, 2048, 1ul << 24,
                                                40960, "512", &m, &err),
                 LAB_EPARSE);
}

/* Modelled times of the three roles, each with counts of its own (warp instructions as a
 * stand-in) so that no two are the same kernel to the model. */
static void
three_roles(lab_modelled *m, double student, double baseline, double reference)
{
    const double ns[] = { student, baseline, reference };

    memset(m, 0, sizeof(*m));
    lab_model_gpu_defaults(&m->gpu);
    snprintf(m->gpu.name, sizeof(m->gpu.name), "H100");
    for (int r = 0; r < LAB_MODELLED_ROLE_COUNT; r++) {
        m->has[r] = true;
        m->ns[r] = ns[r];
        m->counts[r].c[LAB_MODEL_C_WARP_INSTS] = 1000 + r;
    }
}

/* SLOW only past the line by more than the model's error, PASS only inside it by more, too
 * close to call between (a correct kernel's points); a student whose counts are the baseline's
 * or the reference's is called exactly, whatever the band. */
Test(modelled, the_error_band_makes_three_zones)
{
    lab_exercise ex = { .id = "reduction/neighbored-less",
                        .title = "Neighbored pairs, less divergence",
                        .kernel = "reduceNeighboredLess",
                        .ntiming_sizes = 1,
                        .min_speedup = 1.10,
                        .min_fraction_of_reference = 0.75,
                        .points = 10 };
    lab_modelled m;
    lab_grade_result r;

    /* the reference at 2x over the baseline; the line 1.10x; no band measured: 20 % */
    three_roles(&m, 52, 100, 50);
    cr_expect_eq(judge_modelled(&ex, &m, &r), LAB_VERDICT_PASS, "%s", r.message);
    cr_expect_float_eq(r.model_band, LAB_MODEL_BAND_UNMEASURED, 1e-12);
    cr_expect(strstr(r.message, "not yet measured: 20% assumed"), "%s", r.message);
    three_roles(&m, 80, 100, 50); /* 1.25x: inside the line, by less than the band */
    cr_expect_eq(judge_modelled(&ex, &m, &r), LAB_VERDICT_NO_GPU, "%s", r.message);
    cr_expect_eq(r.points, 5);
    cr_expect(strstr(r.message, "correct on the simulator; too close to call without a GPU: "
                                "modelled for an H100, not measured"),
              "%s", r.message);
    cr_expect_not_null(r.advice);
    /* a step whose reference gains 1.22x (interleaved's on the H100): 1.00x, with other counts
     * than the baseline's, is within the band of both lines */
    three_roles(&m, 100, 100, 82);
    cr_expect_eq(judge_modelled(&ex, &m, &r), LAB_VERDICT_NO_GPU, "%s", r.message);
    three_roles(&m, 125, 100, 50); /* 0.80x: past the line by more than the band */
    cr_expect_eq(judge_modelled(&ex, &m, &r), LAB_VERDICT_SLOW, "%s", r.message);
    cr_expect_eq(r.points, 5);

    /* the baseline's counts: exactly 1.00x, SLOW whatever the band */
    three_roles(&m, 100, 100, 50);
    m.counts[LAB_MODELLED_STUDENT] = m.counts[LAB_MODELLED_BASELINE];
    cr_expect_eq(judge_modelled(&ex, &m, &r), LAB_VERDICT_SLOW, "%s", r.message);
    cr_expect_float_eq(r.model_band, 0, 1e-12);
    cr_expect(
        strstr(r.message, "the same counts as reduceNeighbored's: no model error between them"),
        "%s", r.message);
    /* the reference's counts: its own verdict, PASS */
    three_roles(&m, 50, 100, 50);
    m.counts[LAB_MODELLED_STUDENT] = m.counts[LAB_MODELLED_REFERENCE];
    cr_expect_eq(judge_modelled(&ex, &m, &r), LAB_VERDICT_PASS, "%s", r.message);

    /* a band measured on held-out kernels replaces the assumed one */
    three_roles(&m, 60, 100, 50); /* 1.67x, 83 % of the reference */
    cr_expect_eq(judge_modelled(&ex, &m, &r), LAB_VERDICT_NO_GPU, "20 %%: %s", r.message);
    m.gpu.nheldout = 24;
    m.gpu.speedup_error_p90 = 0.05;
    cr_expect_eq(judge_modelled(&ex, &m, &r), LAB_VERDICT_PASS, "5 %%: %s", r.message);
    cr_expect_float_eq(r.model_band, 0.05, 1e-12);
    cr_expect(strstr(r.message, "within 5% of the measured one for 9 in 10 of the 24 kernels it "
                                "was not fitted on"),
              "%s", r.message);
}
