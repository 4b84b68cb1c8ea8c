/*
 * test-sim.c - the PTX simulator (lab/sim): parsing, reconvergence,
 * arithmetic against the CPU's IEEE results, atomics, warp operations, the
 * metrics against the worked example of docs/design/simulator.md and each check on a planted
 * kernel.
 *
 * The kernels are tests/sim/kernels.cu, built by real nvcc into
 * $CUDALAB_TEST_SIM_PTX (the Makefile); the notes' reduceNeighbored is the
 * neighbored exercise's starter, built here with nvcc too.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/util/buf.h"
#include "lab/sim/sim.h"
#include "tests/sim-test.h"

static void
load_text(const char *text, const char *path)
{
    lab_err err = LAB_ERR_INIT;

    cr_assert_eq(lab_sim_new(&sim, &err), 0, "%s", err.msg);
    lab_sim_set_threads(sim, 2);
    cr_assert_eq(lab_sim_load(sim, text, strlen(text), path, &mod, &err), 0, "%s", err.msg);
}

static void
load_kernels(void)
{
    sim_load_env("CUDALAB_TEST_SIM_PTX");
}

static void
teardown(void)
{
    sim_unload();
}

static lab_sim_result
launch(const char *kernel, unsigned grid, unsigned block, void **args)
{
    unsigned g[3] = { grid, 1, 1 }, b[3] = { block, 1, 1 };
    lab_sim_result r;
    lab_err err = LAB_ERR_INIT;

    cr_assert_eq(lab_sim_launch(mod, kernel, g, b, 0, args, &r, &err), 0, "%s", err.msg);
    return r;
}

/* ---- parsing ------------------------------------------------------------- */

static const char *const tiny_ptx = ".version 9.0\n.target sm_90\n.address_size 64\n"
                                    ".visible .entry k(\n\t.param .u64 k_param_0\n)\n{\n"
                                    "\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<3>;\n"
                                    "\tld.param.u64 %rd1, [k_param_0];\n"
                                    "\tcvta.to.global.u64 %rd2, %rd1;\n"
                                    "\tmov.u32 %r1, %tid.x;\n"
                                    "\tFROB\n"
                                    "\tst.global.u32 [%rd2], %r1;\n\tret;\n}\n";

Test(sim_parse, a_small_module_and_its_kernel, .fini = teardown)
{
    char *text = strdup(tiny_ptx);
    *strstr(text, "\tFROB\n") = ' ';
    memcpy(strstr(text, "FROB"), "    ", 4);
    load_text(text, "tiny.ptx");
    cr_expect(lab_sim_has_kernel(mod, "k"));
    cr_expect(!lab_sim_has_kernel(mod, "other"));
    cr_expect_str_eq(lab_sim_kernel_name(mod, 0), "k");
    free(text);
}

Test(sim_parse, an_unknown_instruction_names_itself_and_its_line)
{
    lab_err err = LAB_ERR_INIT;
    char *text = strdup(tiny_ptx);
    memcpy(strstr(text, "FROB"), "frob", 4);
    /* "frob" alone is not an instruction */
    cr_assert_eq(lab_sim_new(&sim, &err), 0);
    cr_expect_eq(lab_sim_load(sim, text, strlen(text), "/cache/tiny.ptx", &mod, &err), LAB_ENOSYS);
    cr_expect_str_eq(err.msg, "the simulator does not support the instruction 'frob' at PTX line "
                              "13; grade it on a GPU");
    lab_sim_free(sim);
    sim = NULL;
    free(text);
}

Test(sim_parse, an_unknown_modifier_is_named)
{
    lab_err err = LAB_ERR_INIT;
    char *text = strdup(tiny_ptx), *p = strstr(text, "mov.u32");
    memcpy(p, "mov.q32", 7);
    cr_assert_eq(lab_sim_new(&sim, &err), 0);
    cr_expect_eq(lab_sim_load(sim, text, strlen(text), "tiny.ptx", &mod, &err), LAB_ENOSYS);
    cr_expect(strstr(err.msg, "does not support the modifier '.q32' of 'mov.q32' at PTX line 12"),
              "%s", err.msg);
    lab_sim_free(sim);
    sim = NULL;
    free(text);
}

Test(sim_parse, a_cubin_is_refused)
{
    lab_err err = LAB_ERR_INIT;
    const char elf[] = "\x7f"
                       "ELF\0\0\0";
    cr_assert_eq(lab_sim_new(&sim, &err), 0);
    cr_expect_lt(lab_sim_load(sim, elf, sizeof(elf), "x.cubin", &mod, &err), 0);
    cr_expect(strstr(err.msg, "needs the PTX"), "%s", err.msg);
    lab_sim_free(sim);
    sim = NULL;
}

/* ---- reconvergence --------------------------------------------------------- */

Test(sim_exec, nested_branches_see_their_masks, .init = load_kernels, .fini = teardown)
{
    uint64_t m = dev_buf(64 * 4, NULL), p = dev_buf(64 * 4, NULL);
    void *args[] = { &m, &p };
    unsigned masks[64];
    int path[64];

    launch("nested_branches", 1, 64, args);
    fetch(masks, m, sizeof(masks));
    fetch(path, p, sizeof(path));
    for (int t = 0; t < 64; t++) {
        int want = t & 1 ? (t & 2 ? 3 : 1) : 2;
        unsigned wm = t & 1 ? (t & 2 ? 0x88888888u : 0xaaaaaaaau) : 0x55555555u;
        cr_expect_eq(path[t], want, "thread %d", t);
        /* the odd-only lanes record before the inner split; t&3 lanes overwrite inside */
        cr_expect_eq(masks[t], wm, "thread %d: mask 0x%08x", t, masks[t]);
    }
}

Test(sim_exec, loops_with_break_and_continue, .init = load_kernels, .fini = teardown)
{
    uint64_t o = dev_buf(96 * 4, NULL);
    void *args[] = { &o };
    int out[96];
    lab_sim_result r;

    r = launch("loops", 1, 96, args);
    fetch(out, o, sizeof(out));
    for (int t = 0; t < 96; t++) {
        int acc = 0;
        for (int i = 0; i < t % 7 + 1; i++) {
            if (i == 3 && (t & 4))
                continue;
            if (i == 5 && t > 40)
                break;
            acc += i * t;
        }
        cr_expect_eq(out[t], acc + 32, "thread %d: the warp reconverged after the loop", t);
    }
    cr_expect_gt(r.metrics.divergent, 0);
    cr_expect_eq(r.first.kind, LAB_SIM_CHECK_NONE, "%s", r.first.msg);
}

Test(sim_exec, early_return_before_a_barrier, .init = load_kernels, .fini = teardown)
{
    int in[512], out[512];
    unsigned n = 300;
    for (int i = 0; i < 512; i++)
        in[i] = i * 3;
    uint64_t di = dev_buf(sizeof(in), in), d_o = dev_buf(sizeof(out), NULL);
    void *args[] = { &di, &d_o, &n };
    lab_sim_result r = launch("early_return", 2, 256, args);
    fetch(out, d_o, sizeof(out));
    for (unsigned i = 0; i < n; i++)
        cr_expect_eq(out[i], in[i] + in[i / 256 * 256], "element %u", i);
    cr_expect_eq(r.first.kind, LAB_SIM_CHECK_NONE, "%s", r.first.msg);
}

/* ---- arithmetic against the CPU -------------------------------------------- */

/* cvt.rzi/.rni.s32.f32: rounded, saturated, NaN -> 0 */
static int32_t
f2i(float f, bool nearest)
{
    double v = nearest ? nearbyint(f) : trunc(f);
    return isnan(v)             ? 0
           : v >= 2147483647.0  ? INT32_MAX
           : v <= -2147483648.0 ? INT32_MIN
                                : (int32_t)v;
}

static uint32_t
fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return isnan(f) ? 0x7fffffffu : u; /* the GPU's canonical NaN */
}

Test(sim_exec, float_arithmetic_is_ieee_round_to_nearest, .init = load_kernels, .fini = teardown)
{
    enum { N = 256 };
    float a[N], b[N], out[8 * N];
    unsigned n = N;
    const float edge[] = { 0.0f,      -0.0f, 1.0f,  -1.0f,  1e-40f,
                           -1e-40f,   3.0f,  1e30f, -1e30f, INFINITY,
                           -INFINITY, NAN,   0.1f,  7.0f,   1.17549435e-38f,
                           3.4e38f };
    srand(7);
    for (int i = 0; i < N; i++) {
        a[i] = i < 16 * 16 ? edge[i % 16] : (float)rand() / RAND_MAX;
        b[i] = i < 16 * 16 ? edge[i / 16] : (float)rand() / RAND_MAX - 0.5f;
    }
    uint64_t da = dev_buf(sizeof(a), a), db = dev_buf(sizeof(b), b),
             d_o = dev_buf(sizeof(out), NULL);
    void *args[] = { &da, &db, &d_o, &n };
    launch("float_ops", 1, N, args);
    fetch(out, d_o, sizeof(out));
    for (int i = 0; i < N; i++) {
        float x = a[i], y = b[i];
        float want[8] = { x + y,    x * y,       x / y,       fmaf(x, y, 1.0f),
                          sqrtf(x), fminf(x, y), fmaxf(x, y), x - y };
        for (int k = 0; k < 8; k++) {
            if ((k == 5 || k == 6) && x == 0 && y == 0)
                continue; /* min/max of +-0: the GPU orders -0 < +0, C leaves it open */
            cr_expect_eq(fbits(out[8 * i + k]), fbits(want[k]), "op %d of %a, %a: got %a want %a",
                         k, x, y, out[8 * i + k], want[k]);
        }
    }
}

Test(sim_exec, integer_edges, .init = load_kernels, .fini = teardown)
{
    enum { N = 64 };
    int a[N], b[N], out[8 * N];
    unsigned n = N;
    const int ea[] = { 0, 1, -1, INT32_MIN, INT32_MAX, 7, -7, 123456789 };
    const int eb[] = { 1, -1, 3, -3, 31, 32, 33, INT32_MIN };
    for (int i = 0; i < N; i++) {
        a[i] = ea[i % 8];
        b[i] = eb[i / 8];
    }
    uint64_t da = dev_buf(sizeof(a), a), db = dev_buf(sizeof(b), b),
             d_o = dev_buf(sizeof(out), NULL);
    void *args[] = { &da, &db, &d_o, &n };
    launch("int_ops", 1, N, args);
    fetch(out, d_o, sizeof(out));
    for (int i = 0; i < N; i++) {
        int x = a[i], y = b[i];
        unsigned ux = (unsigned)x, uy = (unsigned)y;
        int q = (x == INT32_MIN && y == -1) ? INT32_MIN : x / y;
        int r = (x == INT32_MIN && y == -1) ? 0 : x % y;
        int want[8] = { q,
                        r,
                        (int)(ux / uy),
                        (int)(ux % uy),
                        x >> (uy & 31),
                        (int)(ux << (uy & 31)),
                        (int)(((int64_t)x * y) >> 32),
                        (int)((uint32_t)f2i((float)x, false) +
                              (uint32_t)f2i((float)y * 0.5f, true)) };
        for (int k = 0; k < 8; k++)
            cr_expect_eq(out[8 * i + k], want[k], "op %d of %d, %d", k, x, y);
    }
}

/* ---- atomics and warp operations ------------------------------------------- */

Test(sim_exec, atomics_from_every_thread, .init = load_kernels, .fini = teardown)
{
    int zero = 0, counter, maxv, cas;
    unsigned inc;
    float fsum, fzero = 0;
    uint64_t c = dev_buf(4, &zero), f = dev_buf(4, &fzero), i = dev_buf(4, &zero),
             m = dev_buf(4, &zero), s = dev_buf(4, &zero);
    void *args[] = { &c, &f, &i, &m, &s };

    launch("atomics", 8, 128, args);
    fetch(&counter, c, 4);
    fetch(&fsum, f, 4);
    fetch(&inc, i, 4);
    fetch(&maxv, m, 4);
    fetch(&cas, s, 4);
    cr_expect_eq(counter, 1024);
    cr_expect_eq(fsum, 1024.0f);
    cr_expect_eq(inc, 1024 % 100, "atomicInc wraps at 99 + 1");
    cr_expect_eq(maxv, 1023);
    cr_expect_eq(cas, 2048, "the CAS loop adds 2 per thread");
}

/* A fixed bug: atom/red were counted as global loads (+1 request per warp-level atomic against
 * the H100's l1tex__t_requests_pipe_lsu_mem_global_op_ld); Nsight Compute counts them apart. */
Test(sim_metrics, atomics_are_neither_loads_nor_stores, .init = load_kernels, .fini = teardown)
{
    int in[512], zero = 0, sum, per[512] = { 0 };
    long want = 0;
    for (int t = 0; t < 512; t++)
        want += in[t] = t % 7;
    uint64_t di = dev_buf(sizeof(in), in), ds = dev_buf(4, &zero), dp = dev_buf(sizeof(per), per);
    void *args[] = { &di, &ds, &dp };
    lab_sim_result r = launch("atomic_counts", 4, 128, args);
    const lab_sim_metrics *m = &r.metrics;
    fetch(&sum, ds, 4);
    fetch(per, dp, sizeof(per));
    cr_expect_eq(sum, want);
    for (int t = 0; t < 512; t++)
        cr_expect_eq(per[t], 1, "per[%d]", t);
    cr_expect_eq(m->warps, 16);
    cr_expect_eq(m->gld_requests, 16, "only in[t]: one request per warp");
    cr_expect_eq(m->gld_sectors, 64);
    cr_expect_eq(m->gst_requests, 0);
    cr_expect_eq(m->gatom_requests, 16 + 4, "per[t] per warp, sum once per block");
    cr_expect_eq(m->gatom_sectors, 64 + 4);
    cr_expect_eq(m->shared_requests, 8, "s = 0 and the read of s, once per block");
    cr_expect_eq(m->shared_atom_requests, 16, "atomicAdd(&s, v) once per warp");
    cr_expect_eq(m->shared_atom_serial, 4 * 4,
                 "ptxas adds a warp's ints in one lane's atomic: a block's four warps take turns");
    cr_expect_eq(r.first.kind, LAB_SIM_CHECK_NONE, "%s", r.first.msg);
}

/* A fixed bug: the model timed every shared atomic request alike, so a sum that adds one lane
 * per warp into shared memory (122 us on the H200) was modelled as slow as one whose 1024 lanes
 * a block add into one word (2.6 ms): the lanes on one address take turns, whichever warp they
 * are in; lanes on other addresses do not wait for them. */
Test(sim_metrics, shared_atomics_take_turns_only_on_one_address, .init = load_kernels,
     .fini = teardown)
{
    int in[256], out[2 * 33];
    for (int t = 0; t < 256; t++)
        in[t] = t % 5; /* so the int adds are not all one value's */
    uint64_t di = dev_buf(sizeof(in), in), d_o = dev_buf(sizeof(out), NULL);
    void *args[] = { &di, &d_o };
    lab_sim_result r = launch("shared_atom_spread", 2, 128, args);
    fetch(out, d_o, sizeof(out));
    for (int b = 0; b < 2; b++) {
        for (int l = 0; l < 32; l++) {
            int want = 0;
            for (int w = 0; w < 4; w++)
                want += in[b * 128 + w * 32 + l];
            cr_expect_eq(out[b * 33 + l], want, "block %d slot %d", b, l);
        }
        cr_expect_eq(out[b * 33 + 32], 4, "block %d: one add per warp", b);
    }
    cr_expect_eq(r.metrics.shared_atom_requests, 8 + 8, "each atomic once per warp");
    cr_expect_eq(r.metrics.shared_atom_serial, 2 * 4,
                 "each slot and the word take one lane of each of a block's four warps");
}

/* gld_rounds, what the performance model's latency stands on: the loads a warp has in flight
 * together are one latency (nvcc's PTX interleaves the four loads with the sums, which ptxas
 * moves after them); a chain of loads that each need the last one's value is one per link */
Test(sim_metrics, waits_for_loads, .init = load_kernels, .fini = teardown)
{
    int in[4 * 256], out[256], next[256], links = 5;
    for (int t = 0; t < 4 * 256; t++)
        in[t] = t;
    for (int t = 0; t < 256; t++)
        next[t] = (t * 37 + 11) % 256; /* a permutation: every link stays in bounds */
    uint64_t di = dev_buf(sizeof(in), in), d_o = dev_buf(sizeof(out), NULL);
    uint64_t dn = dev_buf(sizeof(next), next);
    void *together[] = { &di, &d_o };
    lab_sim_result r = launch("loads_together", 2, 128, together);
    fetch(out, d_o, sizeof(out));
    for (int t = 0; t < 256; t++)
        cr_expect_eq(out[t], 4 * t + 6 * 256, "out[%d]", t);
    cr_expect_eq(r.metrics.gld_requests, 4 * 8, "four loads per warp");
    cr_expect_eq(r.metrics.gld_rounds, 8,
                 "one latency per warp: the four loads are in flight together");

    void *chained[] = { &dn, &d_o, &links };
    r = launch("loads_chained", 2, 128, chained);
    fetch(out, d_o, sizeof(out));
    for (int t = 0; t < 256; t++) {
        int i = t;
        for (int k = 0; k < links; k++)
            i = next[i];
        cr_expect_eq(out[t], i, "out[%d]", t);
    }
    cr_expect_eq(r.metrics.gld_requests, 5 * 8, "a load per link per warp");
    cr_expect_eq(r.metrics.gld_rounds, 5 * 8, "a latency per link per warp: each needs the last");
}

/* What the model's latency adds up: each warp's loads' latencies on its own path (warp 0's three
 * chained loads and one more after the barrier: 4; warp 1's one: 1), and each block-wide
 * barrier once per warp it held (the block waits there for its slowest warp).  The remainder by
 * k is one integer division per warp: a dozen SASS instructions, one PTX instruction. */
Test(sim_metrics, loads_barriers_and_divisions, .init = load_kernels, .fini = teardown)
{
    int next[64], out[64], k = 7;
    for (int t = 0; t < 64; t++)
        next[t] = (t * 5 + 3) % 64;
    uint64_t dn = dev_buf(sizeof(next), next), d_o = dev_buf(sizeof(out), NULL);
    void *args[] = { &dn, &d_o, &k };
    lab_sim_result r = launch("barrier_rounds", 1, 64, args);
    fetch(out, d_o, sizeof(out));
    for (int t = 0; t < 64; t++) {
        int i = t;
        for (int c = 0; c < (t < 32 ? 3 : 0); c++)
            i = next[i];
        cr_expect_eq(out[t], next[i] % k, "out[%d]", t);
    }
    cr_expect_eq(r.metrics.gld_rounds, 4 + 1, "each warp's own path");
    cr_expect_eq(r.metrics.barrier_waits, 2, "one barrier, two warps");
    cr_expect_eq(r.metrics.int_divs, 2, "a remainder by k per warp");
}

/* A fixed bug: a bound check before each load of an unrolled loop ended the stretch of code
 * whose loads are in flight together, so the model counted four latencies where ptxas
 * predicates the checks and issues the four loads at once (unroll-warps8's shuffle-unrolled
 * held-out kernel: modelled +43 % on the H200). */
Test(sim_metrics, guarded_loads_are_in_flight_together, .init = load_kernels, .fini = teardown)
{
    int in[256], out[64];
    unsigned n = 200;
    for (int t = 0; t < 256; t++)
        in[t] = t;
    uint64_t di = dev_buf(sizeof(in), in), d_o = dev_buf(sizeof(out), NULL);
    void *args[] = { &di, &d_o, &n };
    lab_sim_result r = launch("guarded_loads", 1, 64, args);
    fetch(out, d_o, sizeof(out));
    for (unsigned t = 0; t < 64; t++) {
        int want = 0;
        for (unsigned k = 0; k < 4; k++)
            want += t + k * 64 < n ? in[t + k * 64] : 0;
        cr_expect_eq(out[t], want, "out[%u]", t);
    }
    cr_expect_eq(r.metrics.gld_rounds, 1 * 2, "one latency per warp, two warps");
}

Test(sim_exec, shuffles_votes_and_redux, .init = load_kernels, .fini = teardown)
{
    int in[64], out[5 * 64];
    for (int t = 0; t < 64; t++)
        in[t] = t * 7 % 13;
    uint64_t di = dev_buf(sizeof(in), in), d_o = dev_buf(sizeof(out), NULL);
    void *args[] = { &di, &d_o };
    lab_sim_result r = launch("warp_ops", 1, 64, args);
    fetch(out, d_o, sizeof(out));
    for (int w = 0; w < 2; w++) {
        int sum = 0;
        unsigned ballot = 0;
        for (int l = 0; l < 32; l++) {
            sum += in[32 * w + l];
            ballot |= (unsigned)(in[32 * w + l] & 1) << l;
        }
        cr_expect_eq(out[5 * (32 * w) + 0], sum, "shfl_down: lane 0 holds the sum");
        for (int l = 0; l < 32; l++) {
            int t = 32 * w + l;
            cr_expect_eq(out[5 * t + 1], sum, "shfl_xor: lane %d", l);
            cr_expect_eq((unsigned)out[5 * t + 2], ballot);
            cr_expect_eq(out[5 * t + 3], sum, "redux.sync.add");
            cr_expect_eq(out[5 * t + 4], in[32 * w + (l + 1) % 32], "shfl idx");
        }
    }
    cr_expect_eq(r.first.kind, LAB_SIM_CHECK_NONE, "%s", r.first.msg);
}

/* ---- checks ---------------------------------------------------------------- */

static lab_sim_result
run_planted(const char *kernel, unsigned block, int nargs, int k)
{
    int in[256];
    for (int i = 0; i < 256; i++)
        in[i] = i;
    uint64_t a = dev_buf(sizeof(in), in), b = dev_buf(sizeof(in), NULL);
    unsigned un = (unsigned)k;
    void *args2[] = { &a, &b }, *args1[] = { &b }, *args_k[] = { &b, &k }, *args_n[] = { &b, &un };
    void **args = nargs == 2 ? args2 : nargs == 1 ? args1 : nargs == 3 ? args_k : args_n;
    return launch(kernel, 1, block, args);
}

Test(sim_checks, shared_race_between_warps, .init = load_kernels, .fini = teardown)
{
    lab_sim_result r = run_planted("shared_race", 256, 2, 0);
    cr_expect_eq(r.first.kind, LAB_SIM_CHECK_RACE_SHARED, "%s", r.first.msg);
    cr_expect(strstr(r.first.msg, "of block (0,0,0) at kernels.cu:"), "%s", r.first.msg);
}

/* review D2: two threads of different warps that store to one word nobody reads are a duplicate
 * index ("give each word one writer"), not a race that a barrier fixes; the finding names the
 * other thread by its (x,y,z) and keeps its words apart for the lab to translate */
Test(sim_checks, duplicate_index_is_not_a_race, .init = load_kernels, .fini = teardown)
{
    lab_sim_result r = run_planted("duplicate_index", 128, 2, 0);
    char text[512];

    cr_expect_eq(r.first.kind, LAB_SIM_CHECK_DUPLICATE_WRITE, "%s", r.first.msg);
    cr_expect(strstr(r.first.msg, "duplicate index: thread (0,0,0) of this block stored to this "
                                  "global word too"),
              "%s", r.first.msg);
    cr_expect(strstr(r.first.msg, ", thread (64,0,0) of block (0,0,0) at kernels.cu:"), "%s",
              r.first.msg);
    cr_assert_not_null(r.first.what_format);
    cr_assert(lab_fmtargs_format(r.first.what_format, &r.first.what_args, text, sizeof(text)));
    cr_expect(strstr(r.first.msg, text), "the words kept apart are the message's: %s", text);
}

/* a store after a read of another warp's word stays a race */
Test(sim_checks, read_modify_write_stays_a_race, .init = load_kernels, .fini = teardown)
{
    lab_sim_result r = run_planted("global_read_modify_race", 128, 2, 0);

    cr_expect_eq(r.first.kind, LAB_SIM_CHECK_RACE_GLOBAL, "%s", r.first.msg);
}

Test(sim_checks, volatile_warp_idiom_without_syncwarp, .init = load_kernels, .fini = teardown)
{
    lab_sim_result r = run_planted("volatile_warp", 64, 2, 0);
    cr_expect_eq(r.first.kind, LAB_SIM_CHECK_WARP_HAZARD, "%s", r.first.msg);
    cr_expect(strstr(r.first.msg, "__syncwarp"), "%s", r.first.msg);
    cr_expect(!r.fatal);
}

Test(sim_checks, the_syncwarp_version_is_clean, .init = load_kernels, .fini = teardown)
{
    lab_sim_result r = run_planted("syncwarp_fixed", 64, 2, 0);
    cr_expect_eq(r.first.kind, LAB_SIM_CHECK_NONE, "%s", r.first.msg);
}

Test(sim_checks, barrier_in_divergent_code, .init = load_kernels, .fini = teardown)
{
    lab_sim_result r = run_planted("divergent_barrier", 64, 1, 0);
    cr_expect_eq(r.first.kind, LAB_SIM_CHECK_DIVERGENT_BARRIER, "%s", r.first.msg);
    cr_expect(strstr(r.first.msg, "thread (0,0,0) of block (0,0,0)"), "%s", r.first.msg);
}

Test(sim_checks, syncwarp_with_a_divergent_mask, .init = load_kernels, .fini = teardown)
{
    lab_sim_result r = run_planted("bad_syncwarp", 32, 1, 0);
    cr_expect_eq(r.first.kind, LAB_SIM_CHECK_SYNC_MASK, "%s", r.first.msg);
    cr_expect(strstr(r.first.msg, "lane 16"), "%s", r.first.msg);
}

Test(sim_checks, shared_out_of_bounds, .init = load_kernels, .fini = teardown)
{
    lab_sim_result r = run_planted("shared_oob", 32, 3, 1);
    cr_expect_eq(r.first.kind, LAB_SIM_CHECK_OOB_SHARED, "%s", r.first.msg);
    cr_expect(r.fatal);
    cr_expect(strstr(r.first.msg, "thread (31,0,0)"), "%s", r.first.msg);
}

Test(sim_checks, global_out_of_bounds_by_one_element, .init = load_kernels, .fini = teardown)
{
    lab_sim_result r = run_planted("global_oob", 32, 4, 225);
    cr_expect_eq(r.first.kind, LAB_SIM_CHECK_OOB_GLOBAL, "%s", r.first.msg);
    cr_expect(strstr(r.first.msg, "at byte 1024 of a 1024-byte allocation"), "%s", r.first.msg);
    cr_expect(strstr(r.first.msg, "thread (31,0,0)"), "%s", r.first.msg);
}

/* ---- metrics: the notes' reduceNeighbored, 2^20 ints, block 512 --------------- */

Test(sim_metrics, reduce_neighbored_matches_the_oracle, .fini = teardown, .timeout = 120)
{
    const char *ptx = "sim-metrics-neighbored.ptx";
    lab_buf text = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    char cmd[512];
    unsigned n = 1u << 20;

    snprintf(cmd, sizeof(cmd),
             "nvcc -ptx -arch=sm_90 -O3 -lineinfo -o %s exercises/reduction/neighbored/starter.cu",
             ptx);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    cr_assert_eq(lab_buf_read_file(&text, ptx, &err), 0, "%s", err.msg);
    load_text(text.buf, ptx);
    lab_buf_release(&text);
    unlink(ptx);
    uint64_t in = dev_buf((size_t)n * 4, NULL), out = dev_buf(2048 * 4, NULL);
    void *args[] = { &in, &out, &n };
    lab_sim_result r = launch("_Z16reduceNeighboredPiS_j", 2048, 512, args);
    const lab_sim_metrics *m = &r.metrics;
    cr_expect_eq(m->warps, 32768);
    /* docs/design/simulator.md, the worked example: 11.94 load requests, 31.94 sectors, 21
     * branches, 6 divergent, SIMT efficiency 74.1 % per warp */
    cr_expect_eq(m->gld_requests * 10000 / m->warps, 119375);
    cr_expect_eq(m->gld_sectors * 10000 / m->warps, 319375);
    cr_expect_eq(m->branches, 21 * m->warps);
    cr_expect_eq(m->divergent, 6 * m->warps);
    cr_expect_eq((int)(1000 * lab_sim_metric_ratio(m->thread_insts, 32 * m->warp_insts)), 741);
    cr_expect_eq(r.first.kind, LAB_SIM_CHECK_NONE, "%s", r.first.msg);
}

/* ---- constructs learned after the course's corpus (tests/sim/constructs.cu) ---------------- */

static void
load_constructs(void)
{
    sim_load_env("CUDALAB_TEST_SIM_CONSTRUCTS_PTX");
}

/* kernel(in, out, n) as kernel-run launches it: grid ceil(n / block); in has 8 * n + 64 ints */
static lab_sim_result
run_construct(const char *kernel, const int *in, unsigned n, unsigned block, int *out,
              size_t out_ints)
{
    uint64_t di = dev_buf((8 * n + 64) * sizeof(int), in),
             d_o = dev_buf(out_ints * sizeof(int), NULL);
    void *args[] = { &di, &d_o, &n };
    lab_sim_result r = launch(kernel, (n + block - 1) / block, block, args);

    fetch(out, d_o, out_ints * sizeof(int));
    return r;
}

/* A fixed bug: __syncthreads_count/_and/_or (bar.red) could not run.  A partial last block: its
 * threads past n take part with v = 0. */
Test(sim_exec, barrier_reductions, .init = load_constructs, .fini = teardown)
{
    enum { N = 300, B = 128, NB = (N + B - 1) / B };
    static int in[8 * N + 64], out[N];
    for (int i = 0; i < 8 * N + 64; i++)
        in[i] = i * 37 % 256;
    in[5] = 7;    /* block 0: not all != 7 */
    in[200] = 42; /* block 1: one == 42 */
    lab_sim_result r = run_construct("bar_red", in, N, B, out, N);
    for (int b = 0; b < NB; b++) {
        int c = 0, a = 1, o = 0;
        for (int t = 0; t < B; t++) {
            int i = b * B + t, v = i < N ? in[i] : 0;
            c += v > 100;
            a &= v != 7;
            o |= v == 42;
        }
        cr_expect(b != 0 || a == 0, "the planted 7");
        cr_expect(b != 1 || o == 1, "the planted 42");
        for (int t = 0; t < B && b * B + t < N; t++)
            cr_expect_eq(out[b * B + t], c * 4 + a * 2 + o, "thread %d of block %d", t, b);
    }
    cr_expect_eq(r.first.kind, LAB_SIM_CHECK_NONE, "%s", r.first.msg);
}

/* Reductions to which only some warps contribute a true predicate */
Test(sim_exec, barrier_reductions_over_some_warps, .init = load_constructs, .fini = teardown)
{
    enum { N = 256, B = 96 };
    static int in[8 * N + 64], out[N];
    for (int i = 0; i < 8 * N + 64; i++)
        in[i] = i * 11 % 199; /* below 200 ... */
    in[B + 33] = 250;         /* ... but thread 33 of block 1 */
    lab_sim_result r = run_construct("bar_red_mixed", in, N, B, out, N);
    for (int i = 0; i < N; i++) {
        int b = i / B, all = b != 1, any = b == 1;
        int threads = b * B + B <= N ? B : N - b * B; /* all threads of a block count */
        (void)threads;
        cr_expect_eq(out[i], B / 2 * 4 + all * 2 + any, "thread %d of block %d", i % B, b);
    }
    cr_expect_eq(r.first.kind, LAB_SIM_CHECK_NONE, "%s", r.first.msg);
}

/* A fixed bug: p[-1] ([%rd+-4]) failed to load with "bad address offset" */
Test(sim_parse, negative_and_symbol_offsets, .init = load_constructs, .fini = teardown)
{
    enum { N = 200, B = 64 };
    static const int table[16] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3 };
    static int in[8 * N + 64], out[N];
    for (int i = 0; i < 8 * N + 64; i++)
        in[i] = (i * 29 + 3) % 256;
    run_construct("neg_offsets", in, N, B, out, N);
    for (int i = 0; i < N; i++)
        cr_expect_eq(out[i], in[i + N - 1] - 3 * in[i + N - 2], "p[-1] - 3 * p[-2] at %d", i);
    run_construct("sym_offsets", in, N, B, out, N);
    for (int i = 0; i < N; i++)
        cr_expect_eq(out[i], table[3] * 1000 + table[in[i] & 15] * 100 + 50, "at %d", i);
}

/* ulps between two floats of one sign */
static long
ulps(float a, float b)
{
    int32_t x, y;
    memcpy(&x, &a, 4);
    memcpy(&y, &b, 4);
    return labs((long)x - (long)y);
}

/* The accurate sinf/cosf/tanf's slow path (arguments past 105615) reads a local array backwards
 * ([%rd+-4]): within CUDA's documented error (sinf, cosf 2 ulp; tanf 4 ulp) of the host's double */
Test(sim_exec, trig_slow_path, .init = load_constructs, .fini = teardown)
{
    enum { N = 256, B = 128 };
    static int in[8 * N + 64], out[3 * N];
    for (int i = 0; i < 8 * N + 64; i++)
        in[i] = i % 256;
    lab_sim_result r = run_construct("trig_slow_path", in, N, B, out, 3 * N);
    for (int i = 0; i < N; i++) {
        float x = fmaf((float)in[i], 98765.4f, 131072.5f), got[3];
        float want[3] = { (float)sin(x), (float)cos(x), (float)tan(x) };
        long tol[3] = { 2, 2, 4 };
        memcpy(got, &out[3 * i], sizeof(got));
        cr_assert(x > 105615.0f);
        for (int k = 0; k < 3; k++)
            cr_expect(signbit(got[k]) == signbit(want[k]) && ulps(got[k], want[k]) <= tol[k],
                      "%s(%a) = %a, want %a",
                      k == 0   ? "sin"
                      : k == 1 ? "cos"
                               : "tan",
                      x, got[k], want[k]);
    }
    cr_expect_eq(r.first.kind, LAB_SIM_CHECK_NONE, "%s", r.first.msg);
}

/* A fixed bug: nvcc wraps inline asm (and __syncthreads_and's bar.red) in { .reg .pred %p1; ... }
 * and the inner %p1 was the outer one, so the code after the braces read the wrong predicate */
static const char *const scoped_ptx =
    ".version 9.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(\n\t.param .u64 k_param_0\n)\n{\n"
    "\t.reg .pred %p<2>;\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<4>;\n"
    "\tld.param.u64 %rd1, [k_param_0];\n"
    "\tcvta.to.global.u64 %rd2, %rd1;\n"
    "\tadd.s64 %rd3, %rd2, 8;\n"
    "\tmov.u32 %r1, %tid.x;\n"
    "\tsetp.gt.u32 %p1, %r1, 4;\n"
    "\t{\n\t.reg .pred %p1;\n\tsetp.eq.u32 %p1, %r1, 0;\n\tselp.u32 %r2, 1, 2, %p1;\n\t}\n"
    "\tst.global.u32 [%rd3+-8], %r2;\n"
    "\tselp.u32 %r2, 7, 9, %p1;\n"
    "\tst.global.u32 [%rd3+-4], %r2;\n\tret;\n}\n";

Test(sim_parse, registers_of_a_nested_scope_hide_the_outer_ones, .fini = teardown)
{
    unsigned out[2] = { 0 };
    load_text(scoped_ptx, "scoped.ptx");
    uint64_t d = dev_buf(sizeof(out), out);
    void *args[] = { &d };
    launch("k", 1, 1, args);
    fetch(out, d, sizeof(out));
    cr_expect_eq(out[0], 1, "the inner %%p1: tid == 0");
    cr_expect_eq(out[1], 9, "the outer %%p1 again after the braces: tid > 4 is false");
}

/* ---- calls (the .param calling convention) ------------------------------------------------ */

static int
fib(int n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

/* A fixed bug: every call of a device function failed ("the simulator does not support calls
 * of device functions") */
Test(sim_exec, calls_return_values_and_recurse, .init = load_constructs, .fini = teardown)
{
    enum { N = 100, B = 64 };
    static int in[8 * N + 64], out[4 * N];
    for (int i = 0; i < 8 * N + 64; i++)
        in[i] = (i * 13 + 5) % 256;
    lab_sim_result r = run_construct("calls", in, N, B, out, 4 * N);
    for (int i = 0; i < N; i++) {
        float f = (float)in[i] * 2.5f + 0.25f, got;
        memcpy(&got, &out[4 * i + 1], 4);
        cr_expect_eq(out[4 * i], in[i] * in[i] + i, "sq_plus at %d", i);
        cr_expect_eq(got, f, "scale_add at %d", i);
        cr_expect_eq(out[4 * i + 2], fib(in[i] % 12), "fib at %d", i);
        cr_expect_eq(out[4 * i + 3], fib(in[i] % 12) + 1, "store_pair at %d", i);
    }
    cr_expect_eq(r.first.kind, LAB_SIM_CHECK_NONE, "%s", r.first.msg);
}

/* Lanes of one warp call different functions through one pointer: one function at a time */
Test(sim_exec, calls_through_function_pointers, .init = load_constructs, .fini = teardown)
{
    enum { N = 96, B = 32 };
    static int in[8 * N + 64], out[N];
    for (int i = 0; i < 8 * N + 64; i++)
        in[i] = (i * 7 + 1) % 256;
    lab_sim_result r = run_construct("call_pointers", in, N, B, out, N);
    for (int i = 0; i < N; i++) {
        int v = in[i], want = v % 3 == 0 ? v + i : v % 3 == 1 ? v - i : v * i;
        cr_expect_eq(out[i], want, "ops[%d](%d, %d)", v % 3, v, i);
    }
    cr_expect_eq(r.first.kind, LAB_SIM_CHECK_NONE, "%s", r.first.msg);
}

/* Recursion within the GPU's 1 KiB stack runs; past it the launch stops, naming the kernel */
Test(sim_checks, recursion_past_the_stack, .init = load_kernels, .fini = teardown)
{
    int out[32] = { 0 }, shallow = 10, deep = 100000;
    uint64_t d = dev_buf(sizeof(out), out);
    void *a1[] = { &d, &shallow }, *a2[] = { &d, &deep };
    lab_sim_result r = launch("recurse", 1, 32, a1);
    fetch(out, d, sizeof(out));
    cr_expect_eq(r.first.kind, LAB_SIM_CHECK_NONE, "%s", r.first.msg);
    cr_expect_eq(out[0], 10, "depth(p, 10) returns 10");
    r = launch("recurse", 1, 32, a2);
    cr_expect(r.fatal);
    cr_expect_eq(r.first.kind, LAB_SIM_CHECK_STACK_OVERFLOW, "%s", r.first.msg);
    cr_expect(strstr(r.first.msg, "kernel 'recurse' calls '_Z5depthPVii'"), "%s", r.first.msg);
    cr_expect(strstr(r.first.msg, "1024-byte stack"), "%s", r.first.msg);
}

/* ---- printf and assert ---------------------------------------------------------------------- */

/* A fixed bug: printf (a call of vprintf) stopped every kernel that had one.  Its arguments are
 * read as CUDA's printf ABI packs them; the lines come block by block, lowest first, whichever
 * worker ran the block. */
Test(sim_exec, printf_formats_each_threads_lines, .init = load_kernels, .fini = teardown)
{
    int in[64];
    lab_buf want = LAB_BUF_INIT;
    for (int i = 0; i < 64; i++)
        in[i] = 10 * i + 1;
    uint64_t d = dev_buf(sizeof(in), in);
    void *args[] = { &d };
    lab_sim_result r = launch("prints", 3, 64, args);
    for (unsigned b = 0; b < 3; b++) {
        for (unsigned t = 0; t < 3; t++)
            lab_buf_printf(&want,
                           "block [%u,0,0], thread [%u,0,0]: t=%u v=%d f=%.3f s=hey l=%ld c=%c "
                           "x=%08x %5.1e %% end\n",
                           b, t, t, in[t], in[t] * 0.5f, (long)t * -1000000000000L, 'a' + (int)t,
                           (unsigned)in[t], (double)in[t]);
        lab_buf_printf(&want, "block [%u,0,0], thread [40,0,0]: block %u, two\n", b, b);
        lab_buf_printf(&want, "block [%u,0,0], thread [40,0,0]: lines\n", b);
    }
    cr_expect_str_eq(lab_sim_printf_text(sim, NULL), want.buf);
    cr_expect_eq(r.first.kind, LAB_SIM_CHECK_NONE, "%s", r.first.msg);
    lab_buf_release(&want);
}

/* At most LAB_SIM_PRINTF_MAX bytes are kept, the lowest blocks', then what was not kept */
Test(sim_exec, printf_output_is_capped, .init = load_kernels, .fini = teardown)
{
    const char *text;
    uint64_t dropped, all = 0, fit = 0;
    for (unsigned b = 0; b < 8; b++)
        for (unsigned t = 0; t < 256; t++) {
            int n = snprintf(NULL, 0,
                             "block [%u,0,0], thread [%u,0,0]: %04u:%04u "
                             "abcdefghijklmnopqrstuvwxyz0123456789\n",
                             b, t, b, t);
            if (all == fit && fit + (uint64_t)n <= LAB_SIM_PRINTF_MAX)
                fit += (uint64_t)n; /* the first lines, as many as fit */
            all += (uint64_t)n;
        }
    launch("prints_a_lot", 8, 256, NULL);
    text = lab_sim_printf_text(sim, &dropped);
    cr_expect(!strncmp(text, "block [0,0,0], thread [0,0,0]: 0000:0000 abcdef", 46), "%.80s", text);
    cr_expect_eq(strlen(text), fit, "whole lines, as many as fit");
    cr_expect_eq(strlen(text) + dropped, all, "every byte kept or counted");
    cr_expect(!strstr(text, "block [7,0,0]"), "the highest block's lines are not kept");
}

/* A fixed bug: assert (a call of __assertfail) stopped every kernel that had one; a failed one
 * stops the launch with the GPU's message */
Test(sim_checks, a_failed_assert_says_what_the_gpu_says, .init = load_kernels, .fini = teardown)
{
    int in[64], out[64];
    for (int i = 0; i < 64; i++)
        in[i] = i == 37 ? 77 : i;
    uint64_t di = dev_buf(sizeof(in), in), d_o = dev_buf(sizeof(out), NULL);
    void *args[] = { &di, &d_o };
    lab_sim_result r = launch("asserts", 1, 64, args);
    cr_expect(r.fatal);
    cr_expect_eq(r.first.kind, LAB_SIM_CHECK_ASSERT, "%s", r.first.msg);
    cr_expect_str_eq(r.first.msg, "kernels.cu:269: void asserts(const int *, int *): block "
                                  "[0,0,0], thread [37,0,0] Assertion `in[t] != 77` failed.");
    in[37] = 0;
    lab_sim_copy_in(sim, di, in, sizeof(in), &(lab_err)LAB_ERR_INIT);
    r = launch("asserts", 1, 64, args);
    cr_expect_eq(r.first.kind, LAB_SIM_CHECK_NONE, "%s", r.first.msg);
}

/* ---- the GPU the simulator stands for ------------------------------------------------------ */

/* A fixed bug: %nsmid read 1 and %smid 0, so a kernel could tell the simulator from a GPU; they
 * are now an H100's (132 SMs, 64 warp slots each), blocks spread over the SMs in turn */
Test(sim_exec, special_registers_show_an_h100, .init = load_kernels, .fini = teardown)
{
    enum { G = 300, B = 96 };
    static unsigned out[7 * G * B];
    uint64_t d = dev_buf(sizeof(out), NULL);
    void *args[] = { &d };
    uint64_t grid1, grid2;

    launch("gpu_ids", G, B, args);
    fetch(out, d, sizeof(out));
    grid1 = out[5] | (uint64_t)out[6] << 32;
    for (unsigned i = 0; i < G * B; i++) {
        const unsigned *o = &out[7 * i];
        unsigned b = i / B, t = i % B;
        cr_expect_eq(o[0], b % 132, "%%smid of block %u", b);
        cr_expect_eq(o[1], 132, "%%nsmid");
        cr_expect_eq(o[2], (b / 132 * (B / 32) + t / 32) % 64, "%%warpid of thread %u", i);
        cr_expect_eq(o[3], 64, "%%nwarpid");
        cr_expect_eq(o[4], t % 32, "%%laneid");
        cr_expect_eq(o[5] | (uint64_t)o[6] << 32, grid1, "%%gridid: one per grid");
    }
    cr_expect_neq(grid1, 0);
    launch("gpu_ids", 1, 32, args);
    fetch(out, d, 7 * sizeof(unsigned));
    grid2 = out[5] | (uint64_t)out[6] << 32;
    cr_expect_neq(grid2, grid1, "another launch, another grid");

    lab_sim_set_gpu(sim, (lab_sim_gpu){ 114, 64 }); /* an H100 PCIe */
    launch("gpu_ids", 120, 32, args);
    fetch(out, d, 7 * 120 * 32 * sizeof(unsigned));
    cr_expect_eq(out[1], 114);
    cr_expect_eq(out[7 * 32 * 115], 1, "block 115 on SM 1");
}

/* ---- malloc and free ------------------------------------------------------------------------- */

/* A fixed bug: malloc and free stopped every kernel that called them.  Blocks come from the
 * GPU's default heap of 8 MiB: past it malloc returns NULL, and free gives them back.  A block
 * freed and handed to another thread is no race (the small round's warps reuse blocks). */
Test(sim_exec, malloc_and_free_share_an_8_mib_heap, .init = load_kernels, .fini = teardown)
{
    int out[64];
    unsigned small = 64 * sizeof(int), big = 1u << 20;
    uint64_t d = dev_buf(sizeof(out), NULL);
    void *a1[] = { &d, &small }, *a2[] = { &d, &big };
    lab_sim_result r = launch("heap_blocks", 1, 64, a1);
    int got = 0;

    fetch(out, d, sizeof(out));
    for (int t = 0; t < 64; t++)
        cr_expect_eq(out[t], 63 + t, "thread %d's block", t);
    cr_expect_eq(r.first.kind, LAB_SIM_CHECK_NONE, "%s", r.first.msg);
    for (int round = 0; round < 2; round++) { /* a warp's lanes ask for 1 MiB each, twice */
        got = 0;
        launch("heap_blocks", 1, 32, a2);
        fetch(out, d, sizeof(out));
        for (int t = 0; t < 32; t++)
            got += out[t] != -1;
        cr_expect_eq(got, 8, "round %d: 8 MiB hold 8 blocks of 1 MiB, the rest get NULL", round);
    }
}

Test(sim_checks, free_twice, .init = load_kernels, .fini = teardown)
{
    uint64_t d = dev_buf(32 * sizeof(int), NULL);
    void *args[] = { &d };
    lab_sim_result r = launch("heap_free_twice", 1, 32, args);
    cr_expect(r.fatal);
    cr_expect_eq(r.first.kind, LAB_SIM_CHECK_BAD_FREE, "%s", r.first.msg);
    cr_expect(strstr(r.first.msg, "not a block that malloc returned, or freed already"), "%s",
              r.first.msg);
}

/* The heap and the GPU's shape as tests/sim/constructs.cu has them, for the H100's recording */
Test(sim_exec, heap_and_gpu_shape_constructs, .init = load_constructs, .fini = teardown)
{
    enum { N = 300, B = 128 };
    static int in[8 * N + 64], out[N];
    for (int i = 0; i < 8 * N + 64; i++)
        in[i] = (i * 31 + 7) % 256;
    lab_sim_result r = run_construct("heap_sums", in, N, B, out, N);
    for (int i = 0; i < N; i++) {
        int want = 0;
        for (int k = 0; k < 16; k++)
            want += in[i + k];
        cr_expect_eq(out[i], want, "thread %d's block", i);
    }
    cr_expect_eq(r.first.kind, LAB_SIM_CHECK_NONE, "%s", r.first.msg);
    run_construct("gpu_shape", in, N, B, out, N);
    for (int i = 0; i < N; i++)
        cr_expect_eq(out[i], 132064, "at %d", i);
}
