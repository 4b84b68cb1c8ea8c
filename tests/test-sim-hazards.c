/*
 * test-sim-hazards.c - the warp model per lane and the checks of issue 32, on kernels nvcc built:
 * the correct kernels the checks once accused (tests/sim/warp-tiles.cu: tiles of 16 and 8 lanes,
 * cg::reduce on a tile, a half-mask __reduce_add_sync, spin-locked counters) give the host's
 * results with no finding; the hazards (tests/sim/hazards.cu) are each named, with the line,
 * and their correct twins are not.
 *
 * $CUDALAB_TEST_SIM_TILES_PTX and $CUDALAB_TEST_SIM_HAZARDS_PTX (the Makefile builds them for
 * sm_90); tests/gpu/record-sim.sh records warp-tiles.cu on a GPU.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <stdlib.h>
#include <string.h>

#include "lab/util/buf.h"
#include "lab/sim/sim.h"
#include "tests/sim-test.h"

static void
tiles(void)
{
    sim_load_env("CUDALAB_TEST_SIM_TILES_PTX");
}

static void
hazards(void)
{
    sim_load_env("CUDALAB_TEST_SIM_HAZARDS_PTX");
}

enum { N = 1024, B = 256, G = N / B, WORDS = 8 * N + 64 };

/* kernel(in, out, n) as kernel-run launches it, grid G of B threads; in and out of WORDS ints,
 * out holding its initial contents */
static lab_sim_result
run_n(const char *kernel, const int *in, int *out, unsigned n)
{
    lab_err err = LAB_ERR_INIT;
    uint64_t di = dev_buf(WORDS * sizeof(int), in), d_o = dev_buf(WORDS * sizeof(int), out);
    void *args[] = { &di, &d_o, &n };
    unsigned g[3] = { G, 1, 1 }, b[3] = { B, 1, 1 };
    lab_sim_result r;

    cr_assert_eq(lab_sim_launch(mod, kernel, g, b, 0, args, &r, &err), 0, "%s", err.msg);
    fetch(out, d_o, WORDS * sizeof(int));
    return r;
}

static lab_sim_result
run(const char *kernel, const int *in, int *out)
{
    return run_n(kernel, in, out, N);
}

static void
fill(int *v, unsigned mul, unsigned add)
{
    for (unsigned i = 0; i < WORDS; i++)
        v[i] = (int)((i * mul + add) % 256);
}

static int
sum(const int *in, unsigned from, unsigned count)
{
    int s = 0;
    for (unsigned k = from; k < from + count; k++)
        s += in[k];
    return s;
}

static void
expect_clean(const lab_sim_result *r, const char *kernel)
{
    cr_expect_eq(r->first.kind, LAB_SIM_CHECK_NONE, "%s: %s", kernel, r->first.msg);
    cr_expect_not(r->fatal, "%s", kernel);
}

/* ---- what the checks once accused ---------------------------------------- */

Test(sim_tiles, shuffles_within_tiles_of_16_and_8, .init = tiles, .fini = sim_unload)
{
    static int in[WORDS], out[WORDS];
    static const struct {
        const char *kernel;
        unsigned tile;
    } cases[] = { { "tile16_shfl_sum", 16 }, { "tile8_shfl_sum", 8 } };

    fill(in, 37, 11);
    for (size_t c = 0; c < 2; c++) {
        fill(out, 5, 3);
        lab_sim_result r = run(cases[c].kernel, in, out);
        expect_clean(&r, cases[c].kernel);
        for (unsigned t = 0; t < N / cases[c].tile; t++)
            cr_expect_eq(out[t], sum(in, t * cases[c].tile, cases[c].tile), "%s: tile %u",
                         cases[c].kernel, t);
    }
}

Test(sim_tiles, cg_reduce_and_ballot_on_tiles, .init = tiles, .fini = sim_unload)
{
    static int in[WORDS], out[WORDS];
    static const struct {
        const char *kernel;
        unsigned tile;
    } cases[] = { { "tile16_cg_reduce", 16 }, { "tile8_cg_reduce", 8 } };

    fill(in, 41, 7);
    for (size_t c = 0; c < 2; c++) {
        unsigned tl = cases[c].tile;
        fill(out, 5, 3);
        lab_sim_result r = run(cases[c].kernel, in, out);
        expect_clean(&r, cases[c].kernel);
        for (unsigned i = 0; i < N; i++) {
            unsigned first = i / tl * tl, odd = 0;
            for (unsigned k = 0; k < tl; k++)
                odd |= (unsigned)(in[first + k] & 1) << k;
            cr_expect_eq(out[i], sum(in, first, tl) * 1000 + (int)odd, "%s: thread %u",
                         cases[c].kernel, i);
        }
    }
}

Test(sim_tiles, reduce_add_sync_with_half_masks, .init = tiles, .fini = sim_unload)
{
    static int in[WORDS], out[WORDS];

    fill(in, 29, 5);
    fill(out, 5, 3);
    lab_sim_result r = run("redux_half_masks", in, out);
    expect_clean(&r, "redux_half_masks");
    for (unsigned i = 0; i < N; i++)
        cr_expect_eq(out[i], sum(in, i / 16 * 16, 16), "thread %u: its half-warp's sum", i);
}

Test(sim_tiles, counters_under_spin_locks, .init = tiles, .fini = sim_unload)
{
    static int in[WORDS], out[WORDS], before[WORDS];

    fill(in, 31, 9);
    fill(out, 5, 3);
    memcpy(before, out, sizeof(before));
    lab_sim_result r = run("spin_lock_global", in, out);
    expect_clean(&r, "spin_lock_global");
    for (unsigned b = 0; b < G; b++)
        cr_expect_eq(out[b], before[b] + sum(in, b * B, B), "block %u", b);
    r = run("spin_lock_shared", in, out);
    expect_clean(&r, "spin_lock_shared");
    for (unsigned b = 0; b < G; b++)
        cr_expect_eq(out[b], sum(in, b * B, B), "block %u", b);
}

/* ---- the hazards, named where they are ------------------------------------ */

typedef struct hazard_case {
    char kernel[40];
    lab_sim_check kind;
    char words[96]; /* in the finding's message */
} hazard_case;

ParameterizedTestParameters(sim_hazards, each_is_named)
{
    static hazard_case cases[] = {
        { "shfl_full_mask_half_warp", LAB_SIM_CHECK_SYNC_MASK,
          "with mask 0xffffffff run by lanes 0x0000ffff only: lane 16, named in the mask" },
        { "shfl_half_mask_half_warp", LAB_SIM_CHECK_NONE, "" },
        { "shfl_masks_disagree", LAB_SIM_CHECK_SYNC_MASK,
          "where lane 3 of the mask gives 0x0000ffff" },
        { "shared_slots_unwritten", LAB_SIM_CHECK_UNINIT_SHARED,
          "uninitialised shared memory: read of a shared word that no thread of this block" },
        { "shared_slots_written", LAB_SIM_CHECK_NONE, "" },
        { "shared_atomic_unwritten", LAB_SIM_CHECK_UNINIT_SHARED, "hazards.cu:78" },
        { "malloc_past_block", LAB_SIM_CHECK_OOB_GLOBAL,
          "store of 4 bytes at byte 16384 of a 16384-byte block from malloc" },
        { "malloc_within_block", LAB_SIM_CHECK_NONE, "" },
        { "counter_unguarded", LAB_SIM_CHECK_RACE_GLOBAL, "hazards.cu:124" },
        { "counter_written_outside_lock", LAB_SIM_CHECK_RACE_GLOBAL, "hazards.cu:138" },
        { "lock_released_unfenced", LAB_SIM_CHECK_RACE_GLOBAL, "hazards.cu:155" },
        { "lock_word_taken_twice", LAB_SIM_CHECK_RACE_SHARED, "hazards.cu:174" },
    };
    return cr_make_param_array(hazard_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(hazard_case *c, sim_hazards, each_is_named, .init = hazards, .fini = sim_unload)
{
    static int in[WORDS], out[WORDS];

    fill(in, 37, 11);
    fill(out, 5, 3);
    lab_sim_result r = run_n(c->kernel, in, out, N - 100); /* the last block partly past n */
    cr_expect_eq(r.first.kind, c->kind, "%s: %s", c->kernel, r.first.msg);
    cr_expect(strstr(r.first.msg, c->words), "%s: '%s' lacks '%s'", c->kernel, r.first.msg,
              c->words);
    if (c->kind != LAB_SIM_CHECK_NONE)
        cr_expect(strstr(r.first.where, "hazards.cu:"), "%s: where: %s", c->kernel, r.first.where);
}
