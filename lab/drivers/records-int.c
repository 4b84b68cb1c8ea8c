/*
 * records-int.c - the driver for the record-layout family of the divergence
 * chapter (note 004's array of structures against structure of arrays):
 *
 *     struct Record { int key; int value; int flag; };
 *     __global__ void K(const Record *recs, const int *keys, const int *values,
 *                       const int *flags, int *out, unsigned int n)
 *
 * The same n records are on the device twice: as an array of structures
 * (recs) and as a structure of arrays (keys, values, flags).  The kernel reads
 * whichever layout it likes and writes out[i] = 2 * key[i] + 1 for i < n;
 * grid = ceil(n / block).
 *
 * Checks: every element of out for every size, out poisoned before each run
 * and a guard zone after it that must stay poisoned; the inputs padded with
 * poison.  Timing: student, baseline and reference interleaved (8n bytes:
 * one 4-byte field read, one written).
 */
#include "lab/harness/driver.h"
#include "lab/harness/rng.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define POISON_OUT 0x7EADBEEF
#define POISON_IN 0x5A5A5A5A
#define GUARD 1024

typedef struct record {
    int32_t key, value, flag;
} record;

typedef struct problem {
    lab_driver *d;
    unsigned long n;
    size_t words; /* n + GUARD */
    record *recs;
    int32_t *field[3]; /* keys, values, flags */
    lab_dptr d_recs, d_field[3];
    lab_output out;
} problem;

static int
launch(void *ctx, lab_role role, lab_dim3 shape, lab_err *err)
{
    problem *p = ctx;
    unsigned int n = (unsigned int)p->n;
    lab_dim3 grid = { (unsigned)((p->n + shape.x - 1) / shape.x), 1, 1 };
    void *args[] = { &p->d_recs, &p->d_field[0], &p->d_field[1], &p->d_field[2], &p->out.dev, &n };

    return lab_driver_launch(p->d, role, grid, shape, 0, args, err);
}

static uint32_t
want(const void *ctx, size_t i)
{
    const problem *p = ctx;

    return 2u * (uint32_t)p->recs[i].key + 1u;
}

static void
explain(const void *ctx, size_t i, uint32_t value, char *buf, size_t size)
{
    const problem *p = ctx;

    snprintf(buf, size, "2 * key + 1 = %d (key %d)", (int32_t)value, p->recs[i].key);
}

static int
check(void *ctx, lab_role role, lab_dim3 shape, lab_err *err)
{
    problem *p = ctx;
    const lab_output_check c = { .launch = launch,
                                 .ctx = p,
                                 .shape = shape,
                                 .grid = (p->n + shape.x - 1) / shape.x,
                                 .want = want,
                                 .explain = explain,
                                 .name = "out" };

    return lab_driver_check_output(p->d, role, &p->out, &c, err);
}

static int
setup(lab_driver *d, void *problem_, lab_size *size, lab_err *err)
{
    const unsigned long n = size->n;
    lab_rng *rng = size->rng;
    problem *p = problem_;
    int rc;

    *p = (problem){ .d = d, .n = n, .words = n + GUARD };
    size->bytes = 8.0 * (double)n;
    if (!(p->recs = lab_driver_alloc(d, p->words, sizeof(record), err)))
        return err->code;
    for (int f = 0; f < 3; f++)
        if (!(p->field[f] = lab_driver_alloc(d, p->words, 4, err)))
            return err->code;
    for (size_t i = 0; i < p->words; i++) {
        bool in = i < p->n;
        p->recs[i] = (record){ in ? (int32_t)lab_rng_below(rng, 1u << 30) : POISON_IN,
                               in ? (int32_t)lab_rng_below(rng, 1u << 30) : POISON_IN,
                               in ? (int32_t)lab_rng_below(rng, 2) : POISON_IN };
        p->field[0][i] = p->recs[i].key;
        p->field[1][i] = p->recs[i].value;
        p->field[2][i] = p->recs[i].flag;
    }
    if ((rc = lab_driver_upload(d, p->recs, p->words * sizeof(record), &p->d_recs, err)) < 0)
        return rc;
    for (int f = 0; f < 3; f++)
        if ((rc = lab_driver_upload(d, p->field[f], p->words * 4, &p->d_field[f], err)) < 0)
            return rc;
    return lab_driver_output(d, n, GUARD, POISON_OUT, &p->out, err);
}

const lab_family_driver lab_driver_records_int = {
    .problem_size = sizeof(problem),
    .setup = setup,
    .check = check,
    .launch = launch,
};
