/*
 * sim-test.h - what the simulator's Criterion tests share (test-sim.c,
 * test-sim-dynpar.c): the device under test and device buffers filled and
 * read back with every step asserted.  Included once per test binary.
 */
#ifndef TESTS_SIM_TEST_H
#define TESTS_SIM_TEST_H

#include <criterion/criterion.h>

#include "lab/sim/sim.h"

static lab_sim *sim;

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
