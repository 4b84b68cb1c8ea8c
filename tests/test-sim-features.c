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

#include <math.h>
#include <stdlib.h>
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

/* The module ptx (one kernel k(u64 p)) loaded on a fresh simulator and run with one block of 32
 * threads and p a word of device memory: the launch's rc, its result in *r, its error in *err */
static int
run_ptx(const char *ptx, lab_sim_result *r, lab_err *err)
{
    uint64_t d;
    void *args[] = { &d };
    unsigned g[3] = { 1, 1, 1 }, b[3] = { 32, 1, 1 };

    cr_assert_eq(lab_sim_new(&sim, err), 0, "%s", err->msg);
    cr_assert_eq(lab_sim_load(sim, ptx, strlen(ptx), "inline.ptx", &mod, err), 0, "%s", err->msg);
    d = dev_buf(4, NULL);
    return lab_sim_launch(mod, "k", g, b, 0, args, r, err);
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
    lab_sim_result r;

    cr_assert_lt(run_ptx(ptx, &r, &err), 0);
    cr_expect(strstr(err.msg, "the simulator does not support grid-wide cooperative-groups sync"),
              "%s", err.msg);
    cr_expect(strstr(err.msg, "grade it on a GPU"), "%s", err.msg);
}

/* __trap() ends the launch as the kernel's own doing, named and placed (a GPU reports an
 * unspecified launch failure) */
Test(sim_features, trap_stops_the_launch, .fini = sim_unload)
{
    static const char ptx[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                              ".visible .entry k(.param .u64 p)\n{\n.reg .pred %p<2>;\n"
                              ".reg .b32 %r<2>;\n.reg .b64 %rd<2>;\n"
                              "mov.u32 %r1, %tid.x;\nsetp.eq.u32 %p1, %r1, 5;\n"
                              "@%p1 trap;\nld.param.u64 %rd1, [p];\n"
                              "st.global.u32 [%rd1], %r1;\nret;\n}\n";
    lab_err err = LAB_ERR_INIT;
    lab_sim_result r;

    run_ptx(ptx, &r, &err);
    cr_expect_eq(r.first.kind, LAB_SIM_CHECK_TRAP, "%s", r.first.msg);
    cr_expect(r.fatal);
    cr_expect(strstr(r.first.msg, "__trap()"), "%s", r.first.msg);
    cr_expect_eq(r.first.thread[0], 5);
}

/* griddepcontrol (programmatic dependent launch, thrust's): the grid before has ended here */
Test(sim_features, griddepcontrol_runs, .fini = sim_unload)
{
    static const char ptx[] =
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry k(.param .u64 p)\n{\n.reg .b64 %rd<2>;\n"
        "griddepcontrol.wait;\nld.param.u64 %rd1, [p];\n"
        "st.global.u32 [%rd1], 7;\ngriddepcontrol.launch_dependents;\nret;\n}\n";
    lab_err err = LAB_ERR_INIT;
    lab_sim_result r;

    cr_expect_eq(run_ptx(ptx, &r, &err), 0, "%s", err.msg);
    cr_expect_eq(r.first.kind, LAB_SIM_CHECK_NONE, "%s", r.first.msg);
}

/* ---- texture objects (tests/sim/textures.cu, lab/sim/texture.c) --------------------------- */

/* fetch KERNEL at n coordinates (three floats each) from a texture of texels (bytes) in out */
static void
fetch_at(const char *kernel, const lab_sim_texture *shape, const void *texels, size_t bytes,
         const float *coords, int n, float (*out)[4])
{
    lab_err err = LAB_ERR_INIT;
    lab_sim_texture t = *shape;
    uint64_t handle, d_out = dev_buf((size_t)n * 16, NULL), d_c = dev_buf((size_t)n * 12, coords);
    void *args[] = { &d_out, &d_c, &n, &handle };
    unsigned g[3] = { 1, 1, 1 }, b[3] = { 64, 1, 1 };
    lab_sim_result r;

    t.base = dev_buf(bytes, texels);
    cr_assert_eq(lab_sim_texture_create(sim, &t, &handle, &err), 0, "%s", err.msg);
    cr_assert_eq(lab_sim_launch(mod, kernel, g, b, 0, args, &r, &err), 0, "%s", err.msg);
    fetch(out, d_out, (size_t)n * 16);
}

static void
setup_textures(void)
{
    sim_load_env("CUDALAB_TEST_SIM_TEXTURES_PTX");
}

/* a 4 x 3 float texture, coordinates in texels, nearest texel: clamp repeats the edge, border
 * reads zero */
Test(sim_textures, point_clamp_and_border_2d, .init = setup_textures, .fini = sim_unload)
{
    static const float img[3][4] = { { 1, 2, 3, 4 }, { 5, 6, 7, 8 }, { 9, 10, 11, 12 } };
    static const float at[][3] = { { 0.5f, 0.5f, 0 }, { 3.99f, 2.01f, 0 }, { -1.5f, 0.2f, 0 },
                                   { 10, -3, 0 },     { 2.0f, 1.0f, 0 },   { 1.999f, 0.999f, 0 } };
    static const float clamp[] = { 1, 12, 1, 4, 7, 2 }, border[] = { 1, 12, 0, 0, 7, 2 };
    float out[6][4];
    lab_sim_texture t = {
        .dims = 2, .width = 4, .height = 3, .channels = 1, .bits = 32, .kind = 'f'
    };

    fetch_at("fetch2d", &t, img, sizeof(img), &at[0][0], 6, out);
    for (int i = 0; i < 6; i++)
        cr_expect_eq(out[i][0], clamp[i], "clamp, fetch %d: %g", i, (double)out[i][0]);
    t.address[0] = t.address[1] = LAB_SIM_TEX_BORDER;
    fetch_at("fetch2d", &t, img, sizeof(img), &at[0][0], 6, out);
    for (int i = 0; i < 6; i++)
        cr_expect_eq(out[i][0], border[i], "border, fetch %d: %g", i, (double)out[i][0]);
}

/* 8-bit texels read normalized ([0, 1]), linear filtering between the two nearest texels with
 * the weights' 8-bit fraction, normalized coordinates wrapping around */
Test(sim_textures, linear_normalized_read_1d, .init = setup_textures, .fini = sim_unload)
{
    static const uint8_t img[8] = { 0, 255, 51, 102, 204, 0, 17, 34 };
    static const float at[][3] = {
        { 1.25f / 8, 0, 0 }, { 1.5f / 8, 0, 0 }, { 1.0f + 2.6f / 8, 0, 0 }, { -0.5f / 8, 0, 0 }
    };
    float out[4][4];
    lab_sim_texture t = { .dims = 1,
                          .width = 8,
                          .channels = 1,
                          .bits = 8,
                          .kind = 'u',
                          .normalized_read = true,
                          .normalized_coords = true,
                          .linear = true };

    fetch_at("fetch1d", &t, img, sizeof(img), &at[0][0], 4, out);
    /* 1.25 - 0.5 = 0.75: texels 0 and 1, weight 0.75 */
    cr_expect_float_eq(out[0][0], 0.75f, 1e-6, "%g", (double)out[0][0]);
    cr_expect_float_eq(out[1][0], 1.0f, 1e-6, "%g", (double)out[1][0]);
    /* 2.6 - 0.5 = 2.1: texels 2 and 3, weight round(0.1 * 256) / 256 = 26 / 256 */
    cr_expect_float_eq(out[2][0], (230 * 51.0f + 26 * 102.0f) / 256 / 255, 1e-6, "%g",
                       (double)out[2][0]);
    /* -0.5 / 8 wraps to 7.5 / 8: 7.5 - 0.5 = 7, on texel 7 */
    cr_expect_float_eq(out[3][0], 34 / 255.0f, 1e-6, "%g", (double)out[3][0]);
}

/* a 2 x 2 x 2 texture of float4 texels, normalized coordinates wrapping around, nearest texel */
Test(sim_textures, point_wrap_3d_four_channels, .init = setup_textures, .fini = sim_unload)
{
    float img[8][4], out[3][4];
    static const float at[][3] = { { 0.25f, 0.75f, 0.25f },
                                   { 1.75f, -0.75f, 0.75f },
                                   { -0.01f, 0.49f, 2.51f } };
    static const int texel[3] = { 0 * 4 + 1 * 2 + 0, 1 * 4 + 0 * 2 + 1, 1 * 4 + 0 * 2 + 1 };
    lab_sim_texture t = { .dims = 3,
                          .width = 2,
                          .height = 2,
                          .depth = 2,
                          .channels = 4,
                          .bits = 32,
                          .kind = 'f',
                          .normalized_coords = true };

    for (int i = 0; i < 8; i++)
        for (int c = 0; c < 4; c++)
            img[i][c] = (float)(10 * i + c);
    fetch_at("fetch3d", &t, img, sizeof(img), &at[0][0], 3, out);
    for (int i = 0; i < 3; i++)
        for (int c = 0; c < 4; c++)
            cr_expect_eq(out[i][c], img[texel[i]][c], "fetch %d, channel %d: %g", i, c,
                         (double)out[i][c]);
}

/* tex1Dfetch: integer coordinates, uchar4 texels as themselves, zero outside the texture */
Test(sim_textures, fetch_integers_zero_outside, .init = setup_textures, .fini = sim_unload)
{
    static const uint8_t img[3][4] = { { 1, 2, 3, 4 }, { 250, 251, 252, 253 }, { 9, 8, 7, 6 } };
    static const int at[5] = { 0, 2, -1, 3, 1 };
    uint32_t out[5][4];
    lab_err err = LAB_ERR_INIT;
    lab_sim_texture t = { .dims = 1, .width = 3, .channels = 4, .bits = 8, .kind = 'u' };
    uint64_t handle, d_out = dev_buf(sizeof(out), NULL), d_c = dev_buf(sizeof(at), at);
    int n = 5;
    void *args[] = { &d_out, &d_c, &n, &handle };
    unsigned g[3] = { 1, 1, 1 }, b[3] = { 32, 1, 1 };
    lab_sim_result r;

    t.base = dev_buf(sizeof(img), img);
    cr_assert_eq(lab_sim_texture_create(sim, &t, &handle, &err), 0, "%s", err.msg);
    cr_assert_eq(lab_sim_launch(mod, "fetch_int", g, b, 0, args, &r, &err), 0, "%s", err.msg);
    fetch(out, d_out, sizeof(out));
    for (int i = 0; i < 5; i++)
        for (int c = 0; c < 4; c++)
            cr_expect_eq(out[i][c], at[i] >= 0 && at[i] < 3 ? img[at[i]][c] : 0u,
                         "fetch %d, channel %d", i, c);
}

/* a handle that no lab_sim_texture_create returned: named as what the simulator cannot run */
Test(sim_textures, unknown_handle_is_named, .init = setup_textures, .fini = sim_unload)
{
    lab_err err = LAB_ERR_INIT;
    uint64_t handle = 77, d_out = dev_buf(16, NULL), d_c = dev_buf(12, NULL);
    int n = 1;
    void *args[] = { &d_out, &d_c, &n, &handle };
    unsigned g[3] = { 1, 1, 1 }, b[3] = { 32, 1, 1 };
    lab_sim_result r;

    cr_assert_lt(lab_sim_launch(mod, "fetch2d", g, b, 0, args, &r, &err), 0);
    cr_expect(strstr(err.msg, "texture object that was not made on the simulator"), "%s", err.msg);
}

/* vabsdiff4 .add, unsigned and signed bytes: c + the sum of the bytes' distances */
Test(sim_features, vabsdiff4_add, .init = setup, .fini = sim_unload)
{
    enum { N = 256, B = 64 };
    static int in[8 * N + 64], out[N];
    fill(in, 8 * N + 64, 89, 41);
    run("vabsdiff4_add", in, N, B, out);
    for (unsigned i = 0; i < N; i++) {
        uint32_t a = (uint32_t)in[i] * 0x01010101u ^ (uint32_t)in[i + N] << 8,
                 b = (uint32_t)in[i + 2 * N] * 0x00c10301u, c = (uint32_t)in[i + 3 * N], u = c,
                 s = c;
        for (int k = 0; k < 4; k++) {
            int ua = (a >> (8 * k)) & 0xff, ub = (b >> (8 * k)) & 0xff;
            int sa = (int8_t)ua, sb = (int8_t)ub;
            u += (uint32_t)abs(ua - ub);
            s += (uint32_t)abs(sa - sb);
        }
        cr_expect_eq((uint32_t)out[i], u * 1000 + s, "thread %u", i);
    }
}

/* tex2DLayered: a 2 x 2 texture of three layers, nearest texel of the layer asked */
Test(sim_textures, layered_2d, .init = setup_textures, .fini = sim_unload)
{
    static const float img[3][2][2] = { { { 1, 2 }, { 3, 4 } },
                                        { { 5, 6 }, { 7, 8 } },
                                        { { 9, 10 }, { 11, 12 } } };
    static const float at[][3] = { { 0.5f, 1.5f, 2 }, { 1.2f, 0.2f, 0 }, { 1.9f, 1.9f, 1 } };
    static const float want[] = { 11, 2, 8 };
    float out[3][4];
    lab_sim_texture t = {
        .dims = 3, .width = 2, .height = 2, .depth = 3, .channels = 1, .bits = 32, .kind = 'f'
    };

    fetch_at("fetch_layered", &t, img, sizeof(img), &at[0][0], 3, out);
    for (int i = 0; i < 3; i++)
        cr_expect_eq(out[i][0], want[i], "fetch %d: %g", i, (double)out[i][0]);
}

/* texCubemap: the major axis of the direction picks the face, the other two the texel (the
 * programming guide's table) */
Test(sim_textures, cube_map_faces, .init = setup_textures, .fini = sim_unload)
{
    float img[6][2][2], out[3][4];
    static const float at[][3] = { { 1, 0.1f, -0.2f }, { 0, -1, 0.5f }, { -0.3f, 0.2f, -1 } };
    static const float want[] = { 1, 31, 51 }; /* +x: s 0.6, t 0.45; -y: 0.5, 0.25; -z: .65, .4 */
    lab_sim_texture t = {
        .dims = 3, .width = 2, .height = 2, .depth = 6, .channels = 1, .bits = 32, .kind = 'f'
    };

    for (int f = 0; f < 6; f++)
        for (int i = 0; i < 4; i++)
            img[f][i / 2][i % 2] = (float)(10 * f + i);
    fetch_at("fetch_cube", &t, img, sizeof(img), &at[0][0], 3, out);
    for (int i = 0; i < 3; i++)
        cr_expect_eq(out[i][0], want[i], "direction %d: %g", i, (double)out[i][0]);
}

/* surf2Dread with zero outside (x in bytes), surf2Dwrite clamped to the edge */
Test(sim_textures, surface_read_and_write, .init = setup_textures, .fini = sim_unload)
{
    float img[2][4] = { { 1, 2, 3, 4 }, { 5, 6, 7, 8 } }, out[3][4], after[2][4];
    static const float at[][3] = { { 4, 1, 0 }, { 100, 0, 0 }, { 0, 0, 0 } };
    lab_err err = LAB_ERR_INIT;
    lab_sim_texture t = {
        .dims = 2, .width = 4, .height = 2, .channels = 1, .bits = 32, .kind = 'f'
    };
    uint64_t handle, d_out = dev_buf(sizeof(out), NULL), d_c = dev_buf(sizeof(at), at);
    int n = 3;
    void *args[] = { &d_out, &d_c, &n, &handle };
    unsigned g[3] = { 1, 1, 1 }, b[3] = { 32, 1, 1 };
    lab_sim_result r;

    t.base = dev_buf(sizeof(img), img);
    cr_assert_eq(lab_sim_texture_create(sim, &t, &handle, &err), 0, "%s", err.msg);
    cr_assert_eq(lab_sim_launch(mod, "surface_add", g, b, 0, args, &r, &err), 0, "%s", err.msg);
    fetch(out, d_out, sizeof(out));
    fetch(after, t.base, sizeof(after));
    cr_expect_eq(out[0][0], 6.0f);
    cr_expect_eq(out[1][0], 0.0f, "outside, zero");
    cr_expect_eq(out[2][0], 1.0f);
    cr_expect_eq(after[1][1], 7.0f);
    cr_expect_eq(after[0][3], 1.0f, "the write at x = 100 bytes, clamped to the last texel");
    cr_expect_eq(after[0][0], 2.0f);
    cr_expect_eq(after[1][0], 5.0f, "untouched");
}

/* ---- 16-bit floats (half_ops in tests/sim/features.cu), computed here with _Float16 --------- */

static uint16_t
h_bits(_Float16 h)
{
    uint16_t b;
    memcpy(&b, &h, 2);
    return b;
}

static uint32_t
h2_bits(_Float16 lo, _Float16 hi)
{
    return (uint32_t)h_bits(hi) << 16 | h_bits(lo);
}

/* round to bfloat16, to nearest even: from a float's bits */
static uint16_t
bf_round(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return (uint16_t)((b + 0x7fff + ((b >> 16) & 1)) >> 16);
}

static float
bf_value(uint16_t h)
{
    uint32_t b = (uint32_t)h << 16;
    float f;
    memcpy(&f, &b, 4);
    return f;
}

static _Float16
h_min(_Float16 a, _Float16 b)
{
    return a < b ? a : b;
}

static _Float16
h_max(_Float16 a, _Float16 b)
{
    return a > b ? a : b;
}

static _Float16
h_fma(_Float16 a, _Float16 b, _Float16 c)
{
    return (_Float16)fma((double)a, (double)b, (double)c); /* exact in double: one rounding */
}

Test(sim_features, half_and_bfloat16, .init = setup, .fini = sim_unload)
{
    enum { N = 512, B = 128 };
    static int in[8 * N + 64], out[N];
    fill(in, 8 * N + 64, 67, 13);
    run("half_ops", in, N, B, out);
    for (unsigned i = 0; i < N; i++) {
        float x = (float)(in[i] - 128) / 16.0f, y = (float)(in[i + N] - 128) / 16.0f + 0.3f,
              z = (float)(in[i + 2 * N] - 100) / 7.0f;
        _Float16 ax = (_Float16)x, ay = (_Float16)y, bx = (_Float16)y, by = (_Float16)z,
                 cx = (_Float16)z, cy = (_Float16)x;
        uint32_t v[6] = { h2_bits(h_fma(ax, bx, cx), h_fma(ay, by, cy)),
                          h2_bits(ax + bx, ay + by),
                          h2_bits(ax * cx, ay * cy),
                          h2_bits(h_min(ax, bx), h_min(ay, by)),
                          h2_bits(h_max(ax, bx), h_max(ay, by)),
                          h2_bits(ax < 0 ? -ax : ax, ay < 0 ? -ay : ay) };
        _Float16 h = h_fma(ax, by, (_Float16)(z * 1.7f));
        uint16_t b1 = bf_round(x * 3.3f), b2 = bf_round(z);
        uint16_t bs = bf_round(bf_value(b1) + bf_value(b2)),
                 bp = bf_round(bf_value(b1) * bf_value(b2));
        uint16_t bff = bf_round((float)fma(bf_value(b1), bf_value(b2), bf_value(bs)));
        uint32_t r = 0;
        for (int k = 0; k < 6; k++)
            r = r * 31u + v[k];
        r = r * 31u + h_bits(h);
        r = r * 31u + bs + 7u * bp + 13u * bff;
        r = r * 31u + (ax < ay ? 1u : 0u) + (uint32_t)(int)(float)h;
        cr_expect_eq((uint32_t)out[i], r, "thread %u: x %g y %g z %g", i, (double)x, (double)y,
                     (double)z);
    }
}

Test(sim_features, dp4a_and_dp2a, .init = setup, .fini = sim_unload)
{
    enum { N = 256, B = 64 };
    static int in[8 * N + 64], out[N];
    fill(in, 8 * N + 64, 151, 77);
    run("dot_bytes", in, N, B, out);
    for (unsigned i = 0; i < N; i++) {
        uint32_t a = (uint32_t)in[i] * 0x01030507u ^ (uint32_t)in[i + N] << 12,
                 b = (uint32_t)in[i + 2 * N] * 0x00f1a301u, c = (uint32_t)in[i + 3 * N];
        uint32_t s4 = c, u4 = c, h2 = c, l2 = c;
        for (int k = 0; k < 4; k++) {
            s4 += (uint32_t)((int8_t)(a >> (8 * k)) * (int8_t)(b >> (8 * k)));
            u4 += ((a >> (8 * k)) & 0xff) * ((b >> (8 * k)) & 0xff);
        }
        for (int k = 0; k < 2; k++) {
            h2 += (uint32_t)((int16_t)(a >> (16 * k)) * (int8_t)(b >> (8 * (k + 2))));
            l2 += ((a >> (16 * k)) & 0xffff) * ((b >> (8 * k)) & 0xff);
        }
        cr_expect_eq((uint32_t)out[i], s4 * 7 + u4 * 3 + h2 * 5 + l2, "thread %u", i);
    }
}

/* cuda::barrier (mbarrier objects) over two phases, the second completed by a bulk copy's bytes */
Test(sim_features, barrier_objects_and_bulk_copy, .init = setup, .fini = sim_unload)
{
    enum { N = 512, B = 256 };
    static int in[8 * N + 64], out[N];
    fill(in, 8 * N + 64, 29, 3);
    lab_sim_result r = run("barrier_objects", in, N, B, out);
    cr_expect(!r.fatal, "%s", r.first.msg);
    for (unsigned i = 0; i < N; i++) {
        unsigned t = i % B, base = i / B * B;
        int want = in[base + (t + 1) % B] * 3 + in[base + N + (t + 5) % B];
        cr_expect_eq(out[i], want, "thread %u", i);
    }
}

/* ---- warp matrix multiplies (wmma_f16, wmma_int_tf32 in tests/sim/features.cu) ------------- */

/* 16x16x16 of halves into floats, c scaled by the warp's number + 1 first, stored column-major */
Test(sim_features, wmma_f16_into_f32, .init = setup, .fini = sim_unload)
{
    enum { N = 512, B = 64 }; /* 2 warps of a block */
    static int in[8 * N + 64], out[N];
    fill(in, 8 * N + 64, 73, 19);
    run("wmma_f16", in, N, B, out);
    for (unsigned warp = 0; warp < 2; warp++)
        for (unsigned i = 0; i < 16; i++)
            for (unsigned j = 0; j < 16; j++) {
                float acc = ((float)(in[512 + i * 16 + j] % 9) - 4.0f) * (float)(warp + 1), got;
                for (unsigned k = 0; k < 16; k++) /* b column-major: b[k][j] at j * 16 + k */
                    acc += ((float)(in[i * 16 + k] % 17) - 8) / 4.0f *
                           (((float)(in[256 + j * 16 + k] % 13) - 6) / 4.0f);
                memcpy(&got, &out[256 * warp + j * 16 + i], 4);
                cr_expect_eq(got, acc, "warp %u, d[%u][%u]: %g, want %g", warp, i, j, (double)got,
                             (double)acc);
            }
}

static float
tf32(float x)
{
    uint32_t b;
    memcpy(&b, &x, 4);
    b = (b + 0x1000u) & 0xffffe000u; /* to nearest, ties away from zero */
    memcpy(&x, &b, 4);
    return x;
}

Test(sim_features, wmma_u8_and_tf32, .init = setup, .fini = sim_unload)
{
    enum { N = 512, B = 32 };
    static int in[8 * N + 64], out[N];
    fill(in, 8 * N + 64, 41, 7);
    run("wmma_int_tf32", in, N, B, out);
    for (unsigned i = 0; i < 16; i++)
        for (unsigned j = 0; j < 16; j++) {
            int acc = in[512 + i * 16 + j] * 1000;
            double facc = (double)((float)in[768 + i * 16 + j] / 8.0f);
            float got;
            for (unsigned k = 0; k < 16; k++)
                acc += in[i * 16 + k] * in[256 + k * 16 + j];
            for (unsigned k = 0; k < 8; k++)
                facc += (double)tf32((float)(in[1024 + i * 8 + k] % 64) / 3.0f) *
                        (double)((float)(1 << (in[1152 + k * 16 + j] % 4)) / 16.0f);
            cr_expect_eq(out[i * 16 + j], acc, "u8: d[%u][%u]", i, j);
            memcpy(&got, &out[256 + i * 16 + j], 4);
            cr_expect_eq(got, (float)facc, "tf32: d[%u][%u]: %g, want %g", i, j, (double)got, facc);
            cr_expect_eq((double)(float)facc, facc, "tf32: d[%u][%u] is exact in f32", i, j);
        }
}

Test(sim_features, sad_signed_and_unsigned, .init = setup, .fini = sim_unload)
{
    enum { N = 256, B = 64 };
    static int in[8 * N + 64], out[N];
    fill(in, 8 * N + 64, 97, 11);
    run("sad_forms", in, N, B, out);
    for (unsigned i = 0; i < N; i++) {
        int a = in[i] * 40000 - 5000000, b = in[i + N] * 77 - 9000;
        uint32_t sd = (uint32_t)in[i + 2 * N] + (uint32_t)(a > b ? (int64_t)a - b : (int64_t)b - a);
        uint32_t ua = (uint32_t)a, ub = (uint32_t)b, ud = 7u + (ua > ub ? ua - ub : ub - ua);
        cr_expect_eq((uint32_t)out[i], sd * 3u + ud, "thread %u: a %d b %d", i, a, b);
    }
}
