/*
 * host-reduce-int.c - the driver for host-code integer reductions:
 *
 *     int recursiveReduce(int *data, int const size)
 *
 * the notes' CPU oracle, written by the student.  The function may overwrite
 * data[0..size) and returns the sum of its size elements (32-bit wrap-around,
 * as the GPU adds).  It runs in a child process of its own (common/host.h);
 * data lives in memory shared with the driver, followed by a guard zone that
 * must stay untouched.  Graded on correctness: each size once for the student
 * and once for the reference.
 */
#include "common/driver.h"
#include "common/host.h"
#include "common/rng.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GUARD 64
#define POISON 0x00100001u
#define CALL_TIMEOUT_S 20.0

typedef int (*reduce_fn)(int *data, int size);

/* Shared with the child: the data it reduces, then the guard zone; the result before them. */
typedef struct call_area {
    int32_t result;
    uint32_t n;
    uint32_t data[]; /* n + GUARD */
} call_area;

typedef struct problem {
    lab_driver *d;
    unsigned long n;
    uint32_t *input;
    uint32_t sum; /* 32-bit wrap-around */
} problem;

static void
call_reduce(void *function, void *shared)
{
    call_area *a = shared;

    a->result = ((reduce_fn)function)((int *)a->data, (int)a->n);
}

static int
setup(lab_driver *d, void *problem_, lab_size *size, lab_err *err)
{
    problem *p = problem_;

    p->d = d;
    p->n = size->n;
    return (p->input = lab_driver_alloc(d, p->n, sizeof(uint32_t), err)) ? 0 : err->code;
}

static int
fill(void *problem_, lab_rng *rng, lab_err *err)
{
    problem *p = problem_;

    (void)err;
    lab_rng_fill_bytes(rng, p->input, p->n);
    p->sum = 0;
    for (size_t i = 0; i < p->n; i++)
        p->sum += p->input[i];
    return 0;
}

/* Calls role's function on the input; records the case, or fails the report. */
static int
check(void *ctx, lab_role role, lab_dim3 shape, lab_err *err)
{
    problem *p = ctx;
    const unsigned long n = p->n;
    const size_t bytes = sizeof(call_area) + (n + GUARD) * sizeof(uint32_t);
    lab_finding f = { .first_bad = -1 };
    call_area *a;
    bool correct;
    int rc;

    (void)shape;
    if (!(a = lab_host_shared_alloc(bytes, err)))
        return lab_driver_fail(p->d, role, "setup", n, err);
    a->n = (uint32_t)n;
    memcpy(a->data, p->input, n * sizeof(uint32_t));
    for (size_t i = n; i < n + GUARD; i++)
        a->data[i] = POISON;
    if ((rc = lab_driver_call_host(p->d, role, n, a, CALL_TIMEOUT_S, err)) < 0)
        goto out;
    correct = (uint32_t)a->result == p->sum;
    if (!correct)
        lab_finding_detail(&f, "returned %d for %lu elements whose sum is %d", a->result, n,
                           (int32_t)p->sum);
    for (size_t i = n; i < n + GUARD && correct; i++)
        if (a->data[i] != POISON) {
            correct = false;
            lab_finding_detail(&f, "wrote data[%zu], past the %lu elements", i, n);
        }
    f.expected = (int32_t)p->sum;
    f.got = a->result;
    f.bad = correct ? 0 : 1;
    f.first_bad = correct ? -1 : 0;
    rc = lab_driver_add_case(p->d, n, role, &f, err);
out:
    lab_host_shared_free(a, bytes);
    return rc;
}

const lab_family_driver lab_driver_host_reduce_int = {
    .problem_size = sizeof(problem),
    .setup = setup,
    .fill = fill,
    .check = check,
    .host_call = call_reduce,
};
