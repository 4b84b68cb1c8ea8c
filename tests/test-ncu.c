/*
 * test-ncu.c - lab_ncu_parse on ncu --csv text: the header found among the
 * program's and ncu's own lines, columns found by name, launches in the order
 * of their IDs, thousands separators, metrics not asked for, and text with no
 * metric rows.  The CSV follows the layout of `ncu --csv --print-units base`
 * (Nsight Compute 2025.3): one quoted line per launch and metric.
 */
#include "common/ncu.h"

#include <criterion/criterion.h>

#include <math.h>

static const char *const metrics[] = {
    "smsp__sass_average_branch_targets_threads_uniform.pct",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
};

#define HEADER                                                                                     \
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\","            \
    "\"Stream\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric Name\","  \
    "\"Metric Unit\",\"Metric Value\"\n"
#define ROW(id, kernel, metric, value)                                                             \
    "\"" id "\",\"4242\",\"demo-divergence\",\"127.0.0.1\",\"" kernel "\",\"1\",\"7\","            \
    "\"(512, 1, 1)\",\"(8192, 1, 1)\",\"0\",\"9.0\",\"Command line profiler metrics\",\"" metric   \
    "\",\"%\",\"" value "\"\n"

Test(ncu, parse)
{
    static const char csv[] =
        "==PROF== Connected to process 4242 (demo-divergence)\n"
        "==PROF== Profiling \"mathKernel1\": 0%....50%....100% - 1 pass\n"
        "some output of the program, with \"quotes\", and commas\n" HEADER ROW(
            "0", "mathKernel1(float *)", "smsp__sass_average_branch_targets_threads_uniform.pct",
            "0") ROW("0", "mathKernel1(float *)",
                     "sm__warps_active.avg.pct_of_peak_sustained_active", "71.25")
            ROW("1", "longBranch(float *, int)",
                "smsp__sass_average_branch_targets_threads_uniform.pct", "50")
                ROW("1", "longBranch(float *, int)", "dram__bytes_read.sum", "1,234,567")
                    ROW("2", "longBranch(float *, int)",
                        "sm__warps_active.avg.pct_of_peak_sustained_active",
                        "1,024.5") "==PROF== Disconnected from process 4242\r\n";
    lab_ncu n;

    lab_ncu_init(&n);
    cr_assert_eq(lab_ncu_parse(csv, metrics, 2, &n), 0, "%s", n.status);
    cr_assert_str_eq(n.status, "");
    cr_assert_eq(n.nlaunches, 3);
    cr_assert_str_eq(n.kernel[0], "mathKernel1");
    cr_assert_str_eq(n.kernel[1], "longBranch");
    cr_assert_float_eq(n.value[0][0], 0, 1e-12);
    cr_assert_float_eq(n.value[0][1], 71.25, 1e-12);
    cr_assert_float_eq(n.value[1][0], 50, 1e-12);
    cr_assert(isnan(n.value[1][1]), "a metric not printed for a launch stays NAN");
    cr_assert(isnan(n.value[2][0]));
    cr_assert_float_eq(n.value[2][1], 1024.5, 1e-12, "thousands separators are dropped");
}

Test(ncu, nothing_to_read)
{
    static const char *const texts[] = {
        "",
        "==PROF== ERROR: ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA "
        "GPU Performance Counters\n",
        HEADER,
        HEADER "\"0\",\"broken\n",
        HEADER ROW("0", "k()", "another.metric", "3"),
    };

    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
        lab_ncu n;
        lab_ncu_init(&n);
        cr_assert_eq(lab_ncu_parse(texts[i], metrics, 2, &n), -1, "text %zu", i);
        cr_assert_str_eq(n.status, "ncu printed no metric values");
    }
}
