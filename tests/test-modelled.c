/*
 * test-modelled.c - speed on the simulator (lab/grade/modelled.h): the sizes the model's run
 * counts at, for the element and the matrix families, and below the sizes graded.
 */
#include "lab/catalog/family.h"
#include "lab/grade/modelled.h"

#include <criterion/criterion.h>

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
 * grows with n (2 and 8 blocks of 512), counts that grow with it. */
static const char report[] =
    "{\"block\": 512, \"device\": {\"sm_count\": 1},"
    " \"sim_metrics\": ["
    "  {\"role\": \"student\", \"size\": 1024, \"warp_insts\": 1000, \"gld_sectors\": 128},"
    "  {\"role\": \"student\", \"size\": 4096, \"warp_insts\": 4000, \"gld_sectors\": 512},"
    "  {\"role\": \"reference\", \"size\": 1024, \"warp_insts\": 500, \"gld_sectors\": 128},"
    "  {\"role\": \"reference\", \"size\": 4096, \"warp_insts\": 2000, \"gld_sectors\": 512}],"
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
    cr_expect_float_eq(m.at_small[LAB_MODELLED_STUDENT].c[LAB_MODEL_C_WARP_INSTS], 1000, 1e-9);
    cr_expect_float_eq(m.at_big[LAB_MODELLED_STUDENT].c[LAB_MODEL_C_WARP_INSTS], 4000, 1e-9);
    cr_expect_float_eq(m.counts[LAB_MODELLED_STUDENT].c[LAB_MODEL_C_WARP_INSTS], 4000 * 256, 1e-6,
                       "2^20 / 4096: the work grew 256 times");
    cr_expect_gt(m.ns[LAB_MODELLED_STUDENT], m.ns[LAB_MODELLED_REFERENCE],
                 "twice the instructions, the same loads");
    /* without the reference's counts: no model */
    cr_expect_eq(lab_modelled_from_report(report, sizeof(report) - 1, fam, &gpu, 1024, 8192,
                                          1 << 20, &m, &err),
                 LAB_EPARSE);
}
