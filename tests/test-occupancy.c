/*
 * test-occupancy.c - the architecture table and the occupancy rules: values
 * worked out by hand from the calculator's rules, the H100's measured limits
 * (docs/design/gpu-facts.md), and a sweep compared with NVIDIA's own calculator
 * (cuda_occupancy.h, built into tests/tools/occ-oracle and run as a child).
 */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "lab/util/buf.h"
#include "lab/build/occupancy.h"
#include "lab/platform/proc.h"

static lab_occ_result
occ(const char *arch, int block, int regs, int smem)
{
    const lab_arch_limits *a = lab_occupancy_arch(arch);
    lab_occ_input in = { block, regs, smem, 0, 1 };
    lab_occ_result r;
    lab_err err = LAB_ERR_INIT;

    cr_assert_not_null(a, "%s", arch);
    cr_assert_eq(lab_occupancy_compute(a, &in, &r, &err), 0, "%s", err.msg);
    return r;
}

Test(occupancy, table_has_the_seven_architectures)
{
    const char *want[] = { "sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120" };

    cr_assert_eq(lab_occupancy_arch_count(), ARRAY_SIZE(want));
    for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
        const lab_arch_limits *a = lab_occupancy_arch(want[i]);
        cr_assert_not_null(a, "%s", want[i]);
        cr_expect_eq(a->max_warps_per_sm * 32, a->max_threads_per_sm, "%s", want[i]);
    }
    cr_expect_eq(lab_occupancy_arch("sm_90a"), lab_occupancy_arch("sm_90"));
    cr_expect_eq(lab_occupancy_arch("9.0"), lab_occupancy_arch("sm_90"));
    cr_expect_null(lab_occupancy_arch("sm_61"));
    cr_expect_null(lab_occupancy_arch("bogus"));
}

/* docs/design/gpu-facts.md, "The device": 2048 threads (64 warps), 32 blocks, 65536
 * registers per SM and per block, 228 KiB shared per SM, 227 KiB opt-in. */
Test(occupancy, h100_limits_as_measured)
{
    const lab_arch_limits *a = lab_occupancy_arch("sm_90");

    cr_expect_eq(a->max_threads_per_sm, 2048);
    cr_expect_eq(a->max_warps_per_sm, 64);
    cr_expect_eq(a->max_blocks_per_sm, 32);
    cr_expect_eq(a->regs_per_sm, 65536);
    cr_expect_eq(a->regs_per_block, 65536);
    cr_expect_eq(a->smem_per_sm, 228 * 1024);
    cr_expect_eq(a->smem_per_block_optin, 227 * 1024);
}

Test(occupancy, worked_examples)
{
    lab_occ_result r;

    /* 15 regs -> 480 per warp -> 512; 16384/512 = 32 warps per quarter: registers allow 8
     * blocks of 16 warps, warps allow 4 */
    r = occ("sm_90", 512, 15, 0);
    cr_expect_eq(r.blocks_per_sm, 4);
    cr_expect_eq(r.limit_blocks[LAB_OCC_LIMIT_REGISTERS], 8);
    cr_expect(r.limited_by[LAB_OCC_LIMIT_WARPS]);
    cr_expect_float_eq(r.occupancy, 1.0, 1e-9);
    /* 64 regs: 2048 per warp, 8 warps per quarter = 32 warps: 4 blocks of 8 warps = 50 % */
    r = occ("sm_90", 256, 64, 0);
    cr_expect_eq(r.blocks_per_sm, 4);
    cr_expect(r.limited_by[LAB_OCC_LIMIT_REGISTERS]);
    cr_expect_float_eq(r.occupancy, 0.5, 1e-9);
    /* 33 regs: 1056 -> 1280 per warp; 12 warps per quarter = 48: one block of 32 warps */
    r = occ("sm_90", 1024, 33, 0);
    cr_expect_eq(r.blocks_per_sm, 1);
    cr_expect_float_eq(r.occupancy, 0.5, 1e-9);
    /* 48 KiB static + 1 KiB reserved = 50176 B; 233472 / 50176 = 4 blocks of 4 warps */
    r = occ("sm_90", 128, 16, 48 * 1024);
    cr_expect_eq(r.smem_per_block, 50176);
    cr_expect_eq(r.blocks_per_sm, 4);
    cr_expect(r.limited_by[LAB_OCC_LIMIT_SHARED]);
    cr_expect_float_eq(r.occupancy, 0.25, 1e-9);
    /* sm_86: 48 warps; 512 threads -> 3 blocks, 100 % */
    r = occ("sm_86", 512, 32, 0);
    cr_expect_eq(r.blocks_per_sm, 3);
    cr_expect_float_eq(r.occupancy, 1.0, 1e-9);
    /* sm_75: 32 warps, 16 blocks; 64 threads -> 2 warps: blocks limit 16 -> 32 warps */
    r = occ("sm_75", 64, 16, 0);
    cr_expect_eq(r.blocks_per_sm, 16);
    cr_expect(r.limited_by[LAB_OCC_LIMIT_BLOCKS]);
    /* sm_89: 24 blocks of 32 threads = 24 of 48 warps */
    r = occ("sm_89", 32, 16, 0);
    cr_expect_eq(r.blocks_per_sm, 24);
    cr_expect_float_eq(r.occupancy, 0.5, 1e-9);
}

Test(occupancy, impossible_launches_say_why)
{
    lab_occ_result r;

    r = occ("sm_90", 1025, 16, 0);
    cr_expect_eq(r.blocks_per_sm, 0);
    cr_expect(r.why && strstr(r.why, "threads"));
    /* 255 regs * 32 -> 8192 per warp, * 32 warps = 262144 > 65536 per block */
    r = occ("sm_90", 1024, 255, 0);
    cr_expect_eq(r.blocks_per_sm, 0);
    cr_expect(r.why && strstr(r.why, "registers"));
    r = occ("sm_90", 128, 16, 228 * 1024);
    cr_expect_eq(r.blocks_per_sm, 0);
    cr_expect(r.why && strstr(r.why, "shared"));
}

Test(occupancy, bad_input_is_an_error)
{
    lab_occ_input in = { 0, 16, 0, 0, 0 };
    lab_occ_result r;
    lab_err err = LAB_ERR_INIT;

    cr_expect_eq(lab_occupancy_compute(lab_occupancy_arch("sm_90"), &in, &r, &err), LAB_EINVAL);
    cr_expect(strstr(err.msg, "block size"));
}

/* Every architecture x block sizes x registers x shared memory, against cuda_occupancy.h. */
Test(occupancy, agrees_with_nvidias_calculator, .timeout = 60)
{
    const char *oracle = getenv("CUDALAB_OCC_ORACLE");
    static const int blocks[] = { 32, 64, 96, 128, 160, 192, 256, 384, 512, 640, 768, 1024 };
    static const int regs[] = { 0, 8, 15, 16, 24, 32, 33, 40, 48, 56, 64, 72, 96, 128, 168, 255 };
    static const int smem[] = { 0, 100, 1024, 4096, 12288, 16384, 24576, 32768, 49152, 65536 };
    lab_buf input = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    lab_proc p;
    const char *line;
    size_t cases = 0, nonzero = 0;

    cr_assert(oracle && *oracle, "CUDALAB_OCC_ORACLE is not set (make test sets it)");
    for (size_t ai = 0; ai < lab_occupancy_arch_count(); ai++) {
        const lab_arch_limits *a = lab_occupancy_arch_at(ai);
        for (size_t b = 0; b < ARRAY_SIZE(blocks); b++)
            for (size_t r = 0; r < ARRAY_SIZE(regs); r++)
                for (size_t s = 0; s < ARRAY_SIZE(smem); s++)
                    lab_buf_printf(&input, "%d %d %d %d %d %d %d %d %d %d 1\n", a->major, a->minor,
                                   a->max_threads_per_sm, a->regs_per_sm, a->smem_per_sm,
                                   a->smem_per_block_optin, a->smem_reserved_per_block, blocks[b],
                                   regs[r], smem[s]);
    }
    {
        char path[] = "/tmp/occ-input-XXXXXX";
        int fd = mkstemp(path);
        cr_assert_geq(fd, 0);
        cr_assert_eq(lab_write_file(path, input.buf, input.len, &err), 0, "%s", err.msg);
        close(fd);
        lab_proc_init(&p);
        p.output_cap = 16 << 20;
        lab_strvec_pushl(&p.argv, "/bin/sh", "-c", "exec \"$0\" < \"$1\"", oracle, path, NULL);
        cr_assert_eq(lab_proc_run(&p, &err), 0, "%s", err.msg);
        unlink(path);
    }
    cr_assert(p.exited && p.exit_code == 0, "oracle: %s", p.errout.buf);
    line = p.out.buf;
    for (size_t ai = 0; ai < lab_occupancy_arch_count(); ai++) {
        const lab_arch_limits *a = lab_occupancy_arch_at(ai);
        for (size_t b = 0; b < ARRAY_SIZE(blocks); b++)
            for (size_t r = 0; r < ARRAY_SIZE(regs); r++)
                for (size_t s = 0; s < ARRAY_SIZE(smem); s++) {
                    lab_occ_input in = { blocks[b], regs[r], smem[s], 0, 1 };
                    lab_occ_result res;
                    int want;
                    cr_assert(line && sscanf(line, "%d", &want) == 1, "oracle output ends early");
                    line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL;
                    cr_assert_eq(lab_occupancy_compute(a, &in, &res, &err), 0, "%s", err.msg);
                    cr_expect_eq(res.blocks_per_sm, want,
                                 "%s block %d regs %d smem %d: lab %d, cuda_occupancy.h %d",
                                 a->arch, blocks[b], regs[r], smem[s], res.blocks_per_sm, want);
                    cases++;
                    nonzero += want > 0;
                }
    }
    cr_expect_gt(nonzero, cases / 2, "the sweep must mostly hold launchable cases");
    lab_proc_release(&p);
    lab_buf_release(&input);
}
