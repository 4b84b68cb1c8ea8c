/*
 * test-sim-dynpar.c - dynamic parallelism on the simulator (lab/sim/dynpar.c,
 * launch.c): device-side launches run after their parent grid, in stream
 * order, tail launches last, nesting up to the GPU's 24 levels and a clear
 * error past them; the missing barrier before a launch is a race; what is
 * not supported is named.
 *
 * The kernels are tests/sim/dynpar.cu, built by real nvcc with -rdc=true into
 * $CUDALAB_TEST_SIM_DYNPAR_PTX (the Makefile).
 */
#include <criterion/criterion.h>

#include <stdlib.h>
#include <string.h>

#include "lab/util/buf.h"
#include "lab/sim/sim.h"
#include "tests/sim-test.h"

static void
setup(void)
{
    sim_load_env("CUDALAB_TEST_SIM_DYNPAR_PTX");
}

/* rc of the launch; its result in *r, its error in *err */
static int
launch(const char *kernel, unsigned grid, unsigned block, void **args, lab_sim_result *r,
       lab_err *err)
{
    unsigned g[3] = { grid, 1, 1 }, b[3] = { block, 1, 1 };
    return lab_sim_launch(mod, kernel, g, b, 0, args, r, err);
}

Test(sim_dynpar, children_run_and_are_counted, .init = setup, .fini = sim_unload)
{
    int out[3 * 64] = { 0 };
    uint64_t d = dev_buf(sizeof(out), out);
    void *args[] = { &d };
    lab_sim_result r;
    lab_err err = LAB_ERR_INIT;

    cr_assert_eq(launch("parent_fill", 3, 64, args, &r, &err), 0, "%s", err.msg);
    fetch(out, d, sizeof(out));
    for (int i = 0; i < 3 * 64; i++)
        cr_expect_eq(out[i], i + 1, "out[%d] (written by block %d's child)", i, i / 64);
    cr_expect_eq(r.metrics.child_grids, 3, "one child grid per block");
    cr_expect_eq(r.metrics.warps, 3 * 2 + 3 * 2, "the children's warps are the launch's too");
    cr_expect_eq(r.first.kind, LAB_SIM_CHECK_NONE, "%s", r.first.msg);
}

Test(sim_dynpar, stream_order_and_tail_launch, .init = setup, .fini = sim_unload)
{
    int log[8], pos = 0;
    memset(log, 0xff, sizeof(log));
    uint64_t dl = dev_buf(sizeof(log), log), dp = dev_buf(4, &pos);
    void *args[] = { &dl, &dp };
    lab_sim_result r;
    lab_err err = LAB_ERR_INIT;

    cr_assert_eq(launch("stream_order", 1, 32, args, &r, &err), 0, "%s", err.msg);
    fetch(log, dl, sizeof(log));
    fetch(&pos, dp, 4);
    cr_assert_eq(pos, 5, "five grids logged");
    /* the NULL stream: 1, then its child 10, then 2; fire-and-forget 7 on its own, anywhere
     * before the tail launch, which runs after everything else */
    int k = 0, seen7 = 0;
    for (int i = 0; i < 4; i++)
        if (log[i] == 7)
            seen7++;
        else
            log[k++] = log[i];
    cr_expect_eq(seen7, 1, "the fire-and-forget grid ran once before the tail launch");
    cr_expect_eq(log[0], 1, "%d %d %d", log[0], log[1], log[2]);
    cr_expect_eq(log[1], 10, "1's child completes before the next grid of the stream");
    cr_expect_eq(log[2], 2);
    cr_expect_eq(log[4], 3, "the tail launch runs last");
    cr_expect_eq(r.metrics.child_grids, 5);
}

Test(sim_dynpar, nesting_to_the_gpus_limit, .init = setup, .fini = sim_unload)
{
    int depth = 0, stop = 24, deepest = -1;
    uint64_t dd = dev_buf(4, &deepest);
    void *args[] = { &depth, &stop, &dd };
    lab_sim_result r;
    lab_err err = LAB_ERR_INIT;

    cr_assert_eq(launch("recurse", 1, 1, args, &r, &err), 0, "%s", err.msg);
    fetch(&deepest, dd, 4);
    cr_expect_eq(deepest, 24, "24 levels below the host's grid");
    cr_expect_eq(r.metrics.child_grids, 24);
}

Test(sim_dynpar, nesting_past_the_limit_is_an_error, .init = setup, .fini = sim_unload)
{
    int depth = 0, stop = 1000, deepest = -1;
    uint64_t dd = dev_buf(4, &deepest);
    void *args[] = { &depth, &stop, &dd };
    lab_sim_result r;
    lab_err err = LAB_ERR_INIT;

    cr_assert_lt(launch("recurse", 1, 1, args, &r, &err), 0);
    cr_expect(strstr(err.msg, "device-side launch of 'recurse' nested 25 levels deep, past the "
                              "GPU's 24 (there the launch fails with "
                              "cudaErrorLaunchMaxDepthExceeded)"),
              "%s", err.msg);
    cr_expect(strstr(err.msg, "(inlined at dynpar.cu:49)"), "the source line of the launch: %s",
              err.msg);
    fetch(&deepest, dd, 4);
    cr_expect_eq(deepest, 24, "the grids before it ran");
}

Test(sim_dynpar, no_barrier_before_the_launch_is_a_race, .init = setup, .fini = sim_unload)
{
    int data[64], sum = 0, want = 0;
    unsigned n = 64;
    for (int i = 0; i < 64; i++)
        want += data[i] = i * 3 + 1;
    uint64_t dd = dev_buf(sizeof(data), data), ds = dev_buf(4, &sum);
    void *args[] = { &dd, &ds, &n };
    lab_sim_result r;
    lab_err err = LAB_ERR_INIT;

    cr_assert_eq(launch("fold_no_barrier", 1, 64, args, &r, &err), 0, "%s", err.msg);
    fetch(&sum, ds, 4);
    cr_expect_eq(sum, want, "the simulator's schedule sums right anyway");
    cr_expect_eq(r.first.kind, LAB_SIM_CHECK_RACE_GLOBAL, "%s", r.first.msg);
    cr_expect(strstr(r.first.msg, "read of a global word that thread 1 of the launching block "
                                  "wrote with no __syncthreads() before the launch"),
              "%s", r.first.msg);
    cr_expect(strstr(r.first.msg, "thread (1,0,0) of block (0,0,0) at dynpar.cu:"), "%s",
              r.first.msg);
}

Test(sim_dynpar, every_lane_launches_in_order, .init = setup, .fini = sim_unload)
{
    int out[32] = { 0 };
    uint64_t d = dev_buf(sizeof(out), out);
    void *args[] = { &d };
    lab_sim_result r;
    lab_err err = LAB_ERR_INIT;

    cr_assert_eq(launch("per_lane", 1, 32, args, &r, &err), 0, "%s", err.msg);
    fetch(out, d, sizeof(out));
    for (int i = 0; i < 32; i++)
        cr_expect_eq(out[i], i + 1, "lane %d's child", i);
    cr_expect_eq(r.metrics.child_grids, 32);
}

Test(sim_dynpar, an_invalid_child_shape_is_named, .init = setup, .fini = sim_unload)
{
    int out[4] = { 0 };
    uint64_t d = dev_buf(sizeof(out), out);
    void *args[] = { &d };
    lab_sim_result r;
    lab_err err = LAB_ERR_INIT;

    cr_assert_lt(launch("bad_shape", 1, 32, args, &r, &err), 0);
    cr_expect(strstr(err.msg, "device-side launch of '_Z10child_fillPii' with grid (1,1,1) and "
                              "block (2048,1,1): an invalid shape"),
              "%s", err.msg);
}

Test(sim_dynpar, other_calls_are_named, .init = setup, .fini = sim_unload)
{
    int out[32] = { 0 };
    uint64_t d = dev_buf(sizeof(out), out);
    void *args[] = { &d };
    lab_sim_result r;
    lab_err err = LAB_ERR_INIT;

    cr_assert_eq(launch("calls_elsewhere", 1, 32, args, &r, &err), LAB_ENOSYS);
    cr_expect(strstr(err.msg, "the simulator does not support calls of functions the module "
                              "only declares (another file's, linked with -rdc=true): 'call.uni "
                              "_Z9elsewherei' at dynpar.cu:"),
              "%s", err.msg);
    cr_expect(strstr(err.msg, "; grade it on a GPU") && !strchr(err.msg, '/'), "%s", err.msg);
}

/* printf in a module built with -rdc=true, as dynamic parallelism needs */
Test(sim_dynpar, printf_runs, .init = setup, .fini = sim_unload)
{
    int out[32] = { 0 };
    uint64_t d = dev_buf(sizeof(out), out);
    void *args[] = { &d };
    lab_sim_result r;
    lab_err err = LAB_ERR_INIT;

    cr_assert_eq(launch("says_hello", 1, 32, args, &r, &err), 0, "%s", err.msg);
    cr_expect(!strncmp(lab_sim_printf_text(sim, NULL),
                       "block [0,0,0], thread [0,0,0]: hello from 0\n"
                       "block [0,0,0], thread [1,0,0]: hello from 1\n",
                       88),
              "%s", lab_sim_printf_text(sim, NULL));
}
