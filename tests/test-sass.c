/*
 * test-sass.c - SASS and PTX listings and their marks: recorded nvdisasm
 * output (tests/fixtures/sass, README there), then nvcc and nvdisasm run live
 * on the same kernels (nvdisasm from $CUDALAB_NVDISASM, PATH, the toolkit or
 * `make deps`'s tools/cuda/bin).
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/util/buf.h"
#include "lab/platform/proc.h"
#include "lab/build/sass.h"
#include "lab/build/toolchain.h"

static void
parse_sass_file(const char *path, lab_listing *l)
{
    lab_buf text = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;

    cr_assert_eq(lab_buf_read_file(&text, path, &err), 0, "%s", err.msg);
    cr_assert_eq(lab_sass_parse(text.buf, l, &err), 0, "%s", err.msg);
    lab_buf_release(&text);
}

static void
expect_math_kernel1(const lab_listing *l)
{
    lab_mix m;

    lab_listing_mix(l, "_Z11mathKernel1Pf", &m);
    cr_expect_gt(m.total, 5);
    cr_expect_eq(m.marks[LAB_MARK_COND_BRANCH], 0, "mathKernel1 has no branch");
    cr_expect_eq(m.marks[LAB_MARK_BRANCH], 0, "the end-of-function padding is not counted");
    cr_expect_geq(m.marks[LAB_MARK_SELECT], 1, "mathKernel1 selects (FSEL)");
}

/* The select carries the source line of the if (line 8 of the fixture) or the store. */
Test(sass, recorded_math_kernel1_selects_without_branching)
{
    lab_listing l = LAB_LISTING_INIT;
    bool fsel = false;

    parse_sass_file("tests/fixtures/sass/math-kernel1.sm90.sass", &l);
    expect_math_kernel1(&l);
    for (size_t i = 0; i < l.n; i++)
        if (!strcmp(l.v[i].opcode, "FSEL")) {
            fsel = true;
            cr_expect_eq(l.v[i].mark, LAB_MARK_SELECT);
            cr_expect(l.v[i].file && strstr(l.v[i].file, "math-kernel1.cu"));
            cr_expect_gt(l.v[i].line, 3);
            cr_expect_geq(l.v[i].offset, 0);
        }
    cr_expect(fsel);
    lab_listing_release(&l);
}

static void
expect_vector_marks(const lab_listing *l)
{
    lab_mix copy, warp;
    bool ldg128 = false, strong = false;

    lab_listing_mix(l, "_Z5copy4P6float4PKS_", &copy);
    lab_listing_mix(l, "_Z8lastWarpPiS_", &warp);
    cr_expect_eq(copy.marks[LAB_MARK_VECTOR], 2, "LDG.E.128 and STG.E.128");
    cr_expect_eq(warp.marks[LAB_MARK_STRONG_SYS], 6, "volatile: 4 loads, 2 stores");
    cr_expect_eq(warp.marks[LAB_MARK_SHUFFLE], 1);
    cr_expect_eq(warp.marks[LAB_MARK_ATOMIC], 1);
    cr_expect_geq(warp.marks[LAB_MARK_COND_BRANCH], 1, "if (t < 32) is a real branch");
    for (size_t i = 0; i < l->n; i++) {
        ldg128 |= !strcmp(l->v[i].opcode, "LDG.E.128") && l->v[i].mark == LAB_MARK_VECTOR;
        strong |=
            !strcmp(l->v[i].opcode, "LDG.E.STRONG.SYS") && l->v[i].mark == LAB_MARK_STRONG_SYS;
    }
    cr_expect(ldg128);
    cr_expect(strong);
}

Test(sass, recorded_vector_volatile_shuffle_atomic)
{
    lab_listing l = LAB_LISTING_INIT;

    parse_sass_file("tests/fixtures/sass/vector.sm90.sass", &l);
    expect_vector_marks(&l);
    cr_expect_eq(l.nfiles, 3, "vector.cu and two CUDA headers (shuffle, atomics)");
    lab_listing_release(&l);
}

Test(sass, garbage_is_an_empty_listing)
{
    lab_listing l = LAB_LISTING_INIT;
    lab_err err = LAB_ERR_INIT;

    cr_expect_eq(lab_sass_parse("hello\n/* not code */\n\t//## File \"x\n", &l, &err), 0);
    cr_expect_eq(l.n, 0);
    lab_listing_release(&l);
}

/* nvcc -ptx and -cubin, then nvdisasm, all live; returns the PTX text. */
static char *
build_live(const char *src, const char *cubin)
{
    lab_buf ptx_path = LAB_BUF_INIT, ptx = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    const char *nvcc = getenv("CUDALAB_NVCC") ? getenv("CUDALAB_NVCC") : "nvcc";
    lab_proc p;

    lab_buf_printf(&ptx_path, "%s.ptx", cubin);
    lab_proc_init(&p);
    lab_strvec_pushl(&p.argv, nvcc, "-ptx", "-arch=sm_90", "-O3", "-lineinfo", "-o", ptx_path.buf,
                     src, NULL);
    lab_strvec_pushf(&p.env, "PATH=%s:/usr/local/cuda/bin", getenv("PATH"));
    cr_assert_eq(lab_proc_run(&p, &err), 0, "%s", err.msg);
    cr_assert(p.exited && p.exit_code == 0, "%s", p.errout.buf);
    lab_proc_release(&p);
    lab_proc_init(&p);
    lab_strvec_pushl(&p.argv, nvcc, "-cubin", "-arch=sm_90", "-o", cubin, ptx_path.buf, NULL);
    lab_strvec_pushf(&p.env, "PATH=%s:/usr/local/cuda/bin", getenv("PATH"));
    cr_assert_eq(lab_proc_run(&p, &err), 0, "%s", err.msg);
    cr_assert(p.exited && p.exit_code == 0, "%s", p.errout.buf);
    lab_proc_release(&p);
    cr_assert_eq(lab_buf_read_file(&ptx, ptx_path.buf, &err), 0, "%s", err.msg);
    unlink(ptx_path.buf);
    lab_buf_release(&ptx_path);
    return lab_buf_detach(&ptx);
}

static void
live(const char *src, lab_listing *sass, lab_listing *ptx)
{
    char dir[] = "/tmp/test-sass-XXXXXX", *tool = NULL, *text = NULL, *ptx_text;
    lab_buf cubin = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;

    cr_assert_not_null(mkdtemp(dir));
    lab_buf_printf(&cubin, "%s/k.cubin", dir);
    ptx_text = build_live(src, cubin.buf);
    cr_assert_eq(lab_toolchain_find_tool(NULL, "nvdisasm", "CUDALAB_NVDISASM",
                                         getenv("CUDALAB_TOOLS_DIR_TEST"), &tool, &err),
                 0, "%s", err.msg);
    cr_assert_eq(lab_sass_disassemble(tool, cubin.buf, &text, &err), 0, "%s", err.msg);
    cr_assert_eq(lab_sass_parse(text, sass, &err), 0, "%s", err.msg);
    cr_assert_eq(lab_ptx_listing_parse(ptx_text, ptx, &err), 0, "%s", err.msg);
    unlink(cubin.buf);
    rmdir(dir);
    free(tool);
    free(text);
    free(ptx_text);
    lab_buf_release(&cubin);
}

Test(sass, live_math_kernel1, .timeout = 120)
{
    lab_listing sass = LAB_LISTING_INIT, ptx = LAB_LISTING_INIT;
    lab_mix m;

    live("tests/fixtures/sass/math-kernel1.cu", &sass, &ptx);
    expect_math_kernel1(&sass);
    /* the PTX still has the if as a selp or a branch; either way it has source lines */
    lab_listing_mix(&ptx, "_Z11mathKernel1Pf", &m);
    cr_expect_gt(m.total, 5);
    cr_expect_eq(ptx.nfiles, 1);
    for (size_t i = 0; i < ptx.n; i++)
        cr_expect_gt(ptx.v[i].line, 0, "PTX line %zu '%s' has no .loc", i, ptx.v[i].text);
    lab_listing_release(&sass);
    lab_listing_release(&ptx);
}

Test(sass, live_vector_volatile_shuffle_atomic, .timeout = 120)
{
    lab_listing sass = LAB_LISTING_INIT, ptx = LAB_LISTING_INIT;
    lab_mix m;

    live("tests/fixtures/sass/vector.cu", &sass, &ptx);
    expect_vector_marks(&sass);
    lab_listing_mix(&ptx, "_Z8lastWarpPiS_", &m);
    cr_expect_eq(m.marks[LAB_MARK_STRONG_SYS], 6, "ld.volatile / st.volatile");
    cr_expect_eq(m.marks[LAB_MARK_SHUFFLE], 1);
    cr_expect_eq(m.marks[LAB_MARK_WARPSYNC], 1, "bar.warp.sync");
    cr_expect_eq(m.marks[LAB_MARK_ATOMIC], 1);
    lab_listing_mix(&ptx, "_Z5copy4P6float4PKS_", &m);
    cr_expect_eq(m.marks[LAB_MARK_VECTOR], 2, "ld.global.v4 / st.global.v4");
    lab_listing_release(&sass);
    lab_listing_release(&ptx);
}

Test(sass, missing_tool_names_the_fix)
{
    lab_err err = LAB_ERR_INIT;
    char *tool = NULL;

    setenv("CUDALAB_NVDISASM", "/nonexistent/nvdisasm", 1);
    cr_expect_eq(lab_toolchain_find_tool(NULL, "nvdisasm", "CUDALAB_NVDISASM", NULL, &tool, &err),
                 LAB_ETOOL);
    cr_expect(strstr(err.msg, "CUDALAB_NVDISASM"), "%s", err.msg);
    unsetenv("CUDALAB_NVDISASM");
    cr_expect_eq(lab_toolchain_find_tool(NULL, "no-such-cuda-tool", "CUDALAB_NO_SUCH",
                                         "/nonexistent", &tool, &err),
                 LAB_ETOOL);
    cr_expect(strstr(err.msg, "make deps"), "%s", err.msg);
}
