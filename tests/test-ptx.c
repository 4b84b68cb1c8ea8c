/*
 * test-ptx.c - entries, variables and special registers read off PTX made by nvcc 13.0
 * (tests/fixtures/ptx, see its README); the constraints: test-constraints.c.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdlib.h>
#include <string.h>

#include "lab/util/buf.h"
#include "lab/build/ptx.h"

static char *
read_ptx(const char *name)
{
    lab_buf b = LAB_BUF_INIT, path = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;

    lab_buf_printf(&path, "tests/fixtures/ptx/%s.ptx", name);
    cr_assert_eq(lab_buf_read_file(&b, path.buf, &err), 0, "%s", err.msg);
    lab_buf_release(&path);
    return lab_buf_detach(&b);
}

Test(ptx, mangle_matches_nvcc)
{
    lab_buf m = LAB_BUF_INIT;
    char *ptx = read_ptx("neighbored-less");

    cr_assert_eq(lab_ptx_mangle("reduceNeighboredLess", "PiS_j", &m), 0);
    cr_expect_str_eq(m.buf, "_Z20reduceNeighboredLessPiS_j");
    cr_expect(lab_ptx_has_entry(ptx, m.buf));
    cr_expect_not(lab_ptx_has_entry(ptx, "_Z16reduceNeighboredPiS_j"));
    cr_expect_not(lab_ptx_has_entry(ptx, "_Z20reduceNeighboredLess"));
    lab_buf_release(&m);
    free(ptx);
}

Test(ptx, entries_are_demangled)
{
    lab_buf out = LAB_BUF_INIT;
    char *ptx = read_ptx("atomic");

    cr_assert_eq(lab_ptx_list_entries(ptx, &out), 0);
    cr_expect_str_eq(out.buf, "reduceNeighbored(int*, int*, unsigned int), helper(float*)");
    lab_buf_release(&out);
    free(ptx);
}

/* A choice exercise's __device__ variables are module-scope .global lines; a kernel's loads of
 * them and other names that contain them do not count. */
Test(ptx, device_variables_are_found)
{
    char *shape = read_ptx("fastest-shape"), *less = read_ptx("neighbored-less");
    unsigned long x = 0, y = 0;

    cr_expect(lab_ptx_global(shape, "chosenBlockX", &x));
    cr_expect(lab_ptx_global(shape, "chosenBlockY", &y));
    cr_expect_eq(x, 128, "its initializer: %lu", x);
    cr_expect_eq(y, 2, "its initializer: %lu", y);
    cr_expect_not(lab_ptx_global(shape, "chosenBlock", NULL), "a prefix is no name");
    cr_expect_not(lab_ptx_global(shape, "hosenBlockX", NULL), "nor a suffix");
    cr_expect_not(lab_ptx_global(less, "chosenBlockX", NULL));
    cr_expect_not(lab_ptx_global(shape, "sumMatrixOnGPU2D", NULL), "a kernel is no variable");
    free(shape);
    free(less);
}

Test(ptx, globals_lists_every_device_variable_of_the_module)
{
    lab_buf names = LAB_BUF_INIT;
    char *ptx = read_ptx("globals");

    cr_assert_eq(lab_ptx_list_globals(ptx, &names), 0);
    cr_expect_str_eq(names.buf, "dev_sum,chosenBlockX,memo,hidden,memo_in");
    lab_buf_release(&names);
    free(ptx);
    ptx = read_ptx("neighbored-less");
    cr_assert_eq(lab_ptx_list_globals(ptx, &names), 0);
    cr_expect_eq(names.len, 0, "a kernel without __device__ variables: %s", names.buf);
    lab_buf_release(&names);
    free(ptx);
}

/* The special registers that tell machines apart, one table for batch's flags and the grader */
Test(ptx, reads_registers_that_tell_machines_apart)
{
    cr_expect(lab_ptx_reads_any("\tmov.u64 %rd3, %clock64;", LAB_PTX_READS_CLOCK));
    cr_expect(lab_ptx_reads_any("\tmov.u64 %rd1, %globaltimer;", LAB_PTX_READS_CLOCK));
    cr_expect(!lab_ptx_reads_any("\tmov.u32 %r1, %smid;", LAB_PTX_READS_CLOCK));
    for (size_t i = 0; i < 5; i++) {
        static const char *const insn[] = { "mov.u32 %r1, %smid;", "mov.u32 %r1, %nsmid;",
                                            "mov.u32 %r1, %warpid;", "mov.u32 %r1, %nwarpid;",
                                            "mov.u64 %rd1, %gridid;" };
        cr_expect(lab_ptx_reads_any(insn[i], LAB_PTX_READS_GPU_IDS), "%s", insn[i]);
    }
    cr_expect(!lab_ptx_reads_any("\tmov.u32 %r1, %laneid;\n\tmov.u32 %r2, %tid.x;",
                                 LAB_PTX_READS_GPU_IDS));
    cr_expect_str_eq(lab_ptx_reads_names(LAB_PTX_READS_GPU_IDS),
                     "%smid, %nsmid, %warpid, %nwarpid or %gridid");
}

/* The untouched-code test of a step whose lesson does not show in time (lab/grade/policy.h):
 * PTX built as the lab builds it (-lineinfo), its .file and .loc marks, comments, debug
 * strings and the kernels' names set aside. */
Test(ptx, same_code_sets_names_comments_and_lines_aside)
{
    char *starter = read_ptx("lineinfo-starter"), *renamed = read_ptx("lineinfo-starter-renamed");
    char *before = read_ptx("lineinfo-neighbored"),
         *solution = read_ptx("lineinfo-neighbored-less");
    const char *less = "_Z20reduceNeighboredLessPiS_j", *nb = "_Z16reduceNeighboredPiS_j";

    cr_expect(lab_ptx_same_code(starter, less, starter, less));
    /* no comments, other line numbers, a variable renamed, another file name in .file and in
     * the inlined min()'s debug string */
    cr_expect(lab_ptx_same_code(renamed, less, starter, less));
    /* the starter is the step before's kernel under this step's name */
    cr_expect(lab_ptx_same_code(starter, less, before, nb));
    cr_expect_not(lab_ptx_same_code(starter, less, before, less), "the names count once each");
    cr_expect_not(lab_ptx_same_code(solution, less, starter, less), "the step made");
    cr_expect_not(lab_ptx_same_code(solution, less, "", less));
    cr_expect(lab_ptx_same_code("", less, "// only a comment\n", nb));
    free(starter);
    free(renamed);
    free(before);
    free(solution);
}
