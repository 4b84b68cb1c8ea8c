/*
 * test-resusage.c - ptxas -v output read right: recorded output
 * (tests/fixtures/ptxas, README there) and a live run of this machine's ptxas.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/util/buf.h"
#include "lab/platform/proc.h"
#include "lab/build/resusage.h"

static void
parse_file(const char *path, lab_resusage *r)
{
    lab_buf text = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;

    cr_assert_eq(lab_buf_read_file(&text, path, &err), 0, "%s", err.msg);
    cr_assert_eq(lab_resusage_parse(text.buf, r, &err), 0, "%s", err.msg);
    lab_buf_release(&text);
}

Test(resusage, recorded_sm90_entries_and_device_function)
{
    lab_resusage r = LAB_RESUSAGE_INIT;
    const lab_funcres *f;

    parse_file("tests/fixtures/ptxas/mixed-sm90.txt", &r);
    cr_assert_eq(r.n, 4);
    cr_assert_not_null(f = lab_resusage_find(&r, "_Z4smemPfPKf"));
    cr_expect(f->entry);
    cr_expect_str_eq(f->arch, "sm_90");
    cr_expect_eq(f->regs, 32);
    cr_expect_eq(f->barriers, 1);
    cr_expect_eq(f->smem, 4096);
    cr_expect_eq(f->stack_frame, 256);
    cr_expect_eq(f->cumulative_stack, 256);
    cr_expect_eq(f->spill_stores, 0);
    cr_expect_eq(f->cmem0, -1); /* ptxas 13 prints no cmem for sm_90 */
    cr_assert_not_null(f = lab_resusage_find(&r, "_Z3volPVi"));
    cr_expect_eq(f->regs, 8);
    cr_expect_eq(f->barriers, 0);
    cr_assert_not_null(f = lab_resusage_find(&r, "_Z2tkILj512EEvPi"));
    cr_expect_eq(f->regs, 10);
    cr_assert_not_null(f = lab_resusage_find(&r, "_Z6helperPfi"));
    cr_expect_not(f->entry);
    cr_expect_eq(f->regs, -1);
    lab_resusage_release(&r);
}

Test(resusage, recorded_sm75_with_cmem)
{
    lab_resusage r = LAB_RESUSAGE_INIT;
    const lab_funcres *f;

    parse_file("tests/fixtures/ptxas/mixed-sm75.txt", &r);
    cr_assert_not_null(f = lab_resusage_find(&r, "_Z4smemPfPKf"));
    cr_expect_str_eq(f->arch, "sm_75");
    cr_expect_eq(f->regs, 63);
    cr_expect_eq(f->smem, 4096);
    cr_expect_eq(f->cmem0, 368);
    lab_resusage_release(&r);
}

Test(resusage, recorded_spills)
{
    lab_resusage r = LAB_RESUSAGE_INIT;
    const lab_funcres *f;

    parse_file("tests/fixtures/ptxas/spill-sm90.txt", &r);
    cr_assert_eq(r.n, 1);
    f = &r.v[0];
    cr_expect_str_eq(f->name, "_Z5spillPfPKfi");
    cr_expect_eq(f->regs, 24);
    cr_expect_eq(f->stack_frame, 88);
    cr_expect_eq(f->spill_stores, 80);
    cr_expect_eq(f->spill_loads, 100);
    lab_resusage_release(&r);
}

Test(resusage, empty_and_garbage_give_nothing)
{
    lab_resusage r = LAB_RESUSAGE_INIT;
    lab_err err = LAB_ERR_INIT;

    cr_expect_eq(lab_resusage_parse("", &r, &err), 0);
    cr_expect_eq(r.n, 0);
    cr_expect_eq(lab_resusage_parse("ptxas fatal   : Unresolved extern function 'x'\nUsed "
                                    "registers\n    bytes stack frame\n",
                                    &r, &err),
                 0);
    cr_expect_eq(r.n, 0);
    lab_resusage_release(&r);
}

/* This machine's ptxas, now: the spilling kernel under -maxrregcount=24. */
Test(resusage, live_ptxas, .timeout = 120)
{
    char dir[] = "/tmp/test-resusage-XXXXXX";
    lab_buf out = LAB_BUF_INIT;
    lab_resusage r = LAB_RESUSAGE_INIT;
    lab_err err = LAB_ERR_INIT;
    lab_proc p;

    cr_assert_not_null(mkdtemp(dir));
    lab_buf_printf(&out, "%s/sp.cubin", dir);
    lab_proc_init(&p);
    lab_strvec_pushl(&p.argv, getenv("CUDALAB_NVCC") ? getenv("CUDALAB_NVCC") : "nvcc", "-cubin",
                     "-arch=sm_90", "-Xptxas", "-v", "-maxrregcount=24", "-o", out.buf,
                     "tests/fixtures/ptxas/sp.cu", NULL);
    lab_strvec_pushf(&p.env, "PATH=%s:/usr/local/cuda/bin", getenv("PATH"));
    cr_assert_eq(lab_proc_run(&p, &err), 0, "%s", err.msg);
    cr_assert(p.exited && p.exit_code == 0, "%s", p.errout.buf);
    cr_assert_eq(lab_resusage_parse(p.errout.buf, &r, &err), 0, "%s", err.msg);
    cr_assert_eq(r.n, 1, "%s", p.errout.buf);
    cr_expect_eq(r.v[0].regs, 24);
    cr_expect_gt(r.v[0].spill_stores, 0, "%s", p.errout.buf);
    cr_expect_gt(r.v[0].spill_loads, 0);
    unlink(out.buf);
    rmdir(dir);
    lab_proc_release(&p);
    lab_resusage_release(&r);
    lab_buf_release(&out);
}
