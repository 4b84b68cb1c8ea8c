/*
 * sim-test.h - what the simulator's Criterion tests share (test-sim.c,
 * test-sim-dynpar.c): the device under test and device buffers filled and
 * read back with every step asserted.  Included once per test binary.
 */
#ifndef TESTS_SIM_TEST_H
#define TESTS_SIM_TEST_H

#include <criterion/criterion.h>

#include "lab/util/buf.h"
#include "lab/sim/sim.h"

#include <stdlib.h>

static lab_sim *sim;
static lab_sim_module *mod;

/* The simulator (2 threads) with the module that nvcc built into the PTX file named by the
 * environment variable var (the Makefile exports it). */
static void
sim_load_env(const char *var)
{
    const char *path = getenv(var);
    lab_buf b = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;

    cr_assert(path, "%s is not set (run through make)", var);
    cr_assert_eq(lab_buf_read_file(&b, path, &err), 0, "%s", err.msg);
    cr_assert_eq(lab_sim_new(&sim, &err), 0, "%s", err.msg);
    lab_sim_set_threads(sim, 2);
    cr_assert_eq(lab_sim_load(sim, b.buf, b.len, path, &mod, &err), 0, "%s", err.msg);
    lab_buf_release(&b);
}

static void
sim_unload(void)
{
    lab_sim_module_free(mod);
    lab_sim_free(sim);
    mod = NULL;
    sim = NULL;
}

/* bytes of device memory, filled from init if not NULL */
static uint64_t
dev_buf(size_t bytes, const void *init)
{
    lab_err err = LAB_ERR_INIT;
    uint64_t p;

    cr_assert_eq(lab_sim_alloc(sim, bytes, &p, &err), 0, "%s", err.msg);
    if (init)
        cr_assert_eq(lab_sim_copy_in(sim, p, init, bytes, &err), 0, "%s", err.msg);
    return p;
}

static void
fetch(void *dst, uint64_t src, size_t bytes)
{
    lab_err err = LAB_ERR_INIT;
    cr_assert_eq(lab_sim_copy_out(sim, dst, src, bytes, &err), 0, "%s", err.msg);
}

#endif
