/*
 * test-sim-features.c - the features of CUDA that NVIDIA's cuda-samples use and the simulator
 * learned for them (issue 18), each against a computation on the host: cooperative groups'
 * multi-warp tiles (block_tile_memory's reserved shared memory, warps that spin on what another
 * warp writes), bmsk, __nanosleep, cp.async with its commit and wait; and grid-wide sync, which
 * loads and then says that the simulator cannot run it.
 *
 * The kernels are tests/sim/features.cu, built by real nvcc for sm_90 into
 * $CUDALAB_TEST_SIM_FEATURES_PTX (the Makefile); tests/gpu/record-sim.sh records them on a GPU.
 */
#include <criterion/criterion.h>

#include <string.h>

#include "lab/util/buf.h"
#include "lab/sim/sim.h"
#include "tests/sim-test.h"

static void
setup(void)
{
    sim_load_env("CUDALAB_TEST_SIM_FEATURES_PTX");
}

/* kernel(in, out, n) as kernel-run launches it: grid ceil(n / block); in has 8 * n + 64 ints */
static lab_sim_result
run(const char *kernel, const int *in, unsigned n, unsigned block, int *out)
{
    lab_err err = LAB_ERR_INIT;
    uint64_t di = dev_buf((8 * n + 64) * sizeof(int), in), d_o = dev_buf(n * sizeof(int), NULL);
    void *args[] = { &di, &d_o, &n };
    unsigned g[3] = { (n + block - 1) / block, 1, 1 }, b[3] = { block, 1, 1 };
    lab_sim_result r;

    cr_assert_eq(lab_sim_launch(mod, kernel, g, b, 0, args, &r, &err), 0, "%s", err.msg);
    fetch(out, d_o, n * sizeof(int));
    return r;
}

static void
fill(int *in, unsigned count, unsigned mul, unsigned add)
{
    for (unsigned i = 0; i < count; i++)
        in[i] = (int)((i * mul + add) % 256);
}

/* cg::tiled_partition<64> and cg::reduce over it: the tile's barrier and exchange live in the
 * block's reserved shared memory (%reserved_smem_offset_1), where a warp spins until the other
 * has arrived */
Test(sim_features, multi_warp_tiles, .init = setup, .fini = sim_unload)
{
    enum { N = 512, B = 256 };
    static int in[8 * N + 64], out[N];
    fill(in, 8 * N + 64, 37, 11);
    run("tile64_sum", in, N, B, out);
    for (unsigned i = 0; i < N; i++) {
        int sum = 0;
        for (unsigned k = i / 64 * 64; k < i / 64 * 64 + 64; k++)
            sum += in[k];
        cr_expect_eq(out[i], sum * 64 + (int)(i % 64), "thread %u", i);
    }
}

/* the PTX ISA's pseudocode of bmsk, as written there */
static uint32_t
bmsk(uint32_t a, uint32_t b, bool clamp)
{
    uint32_t a1 = a & 0x1f, b1 = b & 0x1f, sum = a1 + b1;
    uint32_t mask0 = ~0u << a1, mask1 = sum < 32 ? ~0u << sum : 0;
    bool over = sum >= 32;

    if (clamp && a >= 32) {
        over = true;
        mask0 = 0;
    }
    if (clamp && b >= 32)
        over = true;
    if (over)
        mask1 = 0;
    else if (b1 == 0)
        mask1 = ~0u;
    return mask0 & ~mask1;
}

Test(sim_features, bmsk_clamp_and_wrap, .init = setup, .fini = sim_unload)
{
    enum { N = 1024, B = 128 };
    static int in[8 * N + 64], out[N];
    fill(in, 8 * N + 64, 101, 3);
    cr_assert(run("bmsk_forms", in, N, B, out).first.kind == LAB_SIM_CHECK_NONE);
    for (unsigned i = 0; i < N; i++) {
        uint32_t a = (uint32_t)in[i] % 40, b = (uint32_t)in[i + N] % 40;
        cr_expect_eq((uint32_t)out[i], bmsk(a, b, true) ^ (bmsk(a, b, false) >> 1),
                     "a = %u, b = %u", a, b);
    }
}

Test(sim_features, nanosleep_while_another_warp_works, .init = setup, .fini = sim_unload)
{
    enum { N = 256, B = 64 };
    static int in[8 * N + 64], out[N];
    fill(in, 8 * N + 64, 7, 1);
    run("nanosleep_wait", in, N, B, out);
    for (unsigned i = 0; i < N; i++)
        cr_expect_eq(out[i], in[i / B] + (int)(i % B), "thread %u", i);
}

Test(sim_features, cp_async_groups, .init = setup, .fini = sim_unload)
{
    enum { N = 512, B = 128 };
    static int in[8 * N + 64], out[N];
    fill(in, 8 * N + 64, 13, 5);
    lab_sim_result r = run("cp_async_groups", in, N, B, out);
    cr_expect_eq(r.first.kind, LAB_SIM_CHECK_NONE, "%s", r.first.msg);
    for (unsigned i = 0; i < N; i++) {
        unsigned t = i % B, u = (t + 1) % B, base = i / B * B * 4;
        int want = in[base + 4 * t] + 3 * in[base + 4 * u + 3] + 5 * in[base + 4 * t + 1] +
                   7 * in[base + 4 * u + 3];
        cr_expect_eq(out[i], want, "thread %u", i);
    }
}

/* cg::this_grid().sync() reads the cooperative launch's workspace (%envreg1, 2): the module
 * loads, and the launch that reaches it says what the simulator cannot run */
Test(sim_features, grid_sync_loads_and_is_named, .fini = sim_unload)
{
    static const char ptx[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                              ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<3>;\n"
                              ".reg .b64 %rd<2>;\n"
                              "mov.u32 %r1, %envreg1;\nmov.u32 %r2, %envreg2;\n"
                              "ld.param.u64 %rd1, [p];\nst.global.u32 [%rd1], %r1;\nret;\n}\n";
    lab_err err = LAB_ERR_INIT;
    uint64_t d;
    void *args[] = { &d };
    unsigned g[3] = { 1, 1, 1 }, b[3] = { 32, 1, 1 };
    lab_sim_result r;

    cr_assert_eq(lab_sim_new(&sim, &err), 0, "%s", err.msg);
    cr_assert_eq(lab_sim_load(sim, ptx, strlen(ptx), "grid.ptx", &mod, &err), 0, "%s", err.msg);
    d = dev_buf(4, NULL);
    cr_assert_lt(lab_sim_launch(mod, "k", g, b, 0, args, &r, &err), 0);
    cr_expect(strstr(err.msg, "the simulator does not support grid-wide cooperative-groups sync"),
              "%s", err.msg);
    cr_expect(strstr(err.msg, "grade it on a GPU"), "%s", err.msg);
}
