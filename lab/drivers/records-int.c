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
#include "common/driver.h"
#include "common/rng.h"

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
    lab_words w; /* in[0]: recs; in[1..3]: keys, values, flags; out */
    record *recs;
    int32_t *field[3]; /* keys, values, flags */
} problem;

static int
launch(void *ctx, lab_role role, lab_dim3 shape, lab_err *err)
{
    problem *p = ctx;
    unsigned int n = (unsigned int)p->w.n;
    lab_dim3 grid = { (n + shape.x - 1) / shape.x, 1, 1 };
    void *args[] = { &p->w.in[0].dev, &p->w.in[1].dev, &p->w.in[2].dev,
                     &p->w.in[3].dev, &p->w.out.dev,   &n };

    return lab_driver_launch(p->w.d, role, grid, shape, 0, args, err);
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

static const lab_output_spec out_spec = { .want = want, .explain = explain, .name = "out" };

static int
setup(lab_driver *d, void *problem_, lab_size *size, lab_err *err)
{
    problem *p = problem_;
    const size_t words = size->n + GUARD;
    int rc;

    lab_words_setup(&p->w, d, size, 4, &out_spec, 8.0); /* 4 bytes read, 4 written */
    if (!(p->recs = lab_driver_alloc(d, words, sizeof(record), err)))
        return err->code;
    if ((rc = lab_driver_input(d, words * sizeof(record), &p->w.in[0], err)) < 0)
        return rc;
    for (int f = 0; f < 3; f++)
        if (!(p->field[f] = lab_driver_alloc(d, words, 4, err)) ||
            (rc = lab_driver_input(d, words * 4, &p->w.in[1 + f], err)) < 0)
            return err->code;
    return lab_driver_output(d, size->n, GUARD, POISON_OUT, &p->w.out, err);
}

static int
fill(void *problem_, lab_rng *rng, lab_err *err)
{
    problem *p = problem_;
    int rc;

    for (size_t i = 0; i < p->w.n + GUARD; i++) {
        bool in = i < p->w.n;
        p->recs[i] = (record){ in ? (int32_t)lab_rng_below(rng, 1u << 30) : POISON_IN,
                               in ? (int32_t)lab_rng_below(rng, 1u << 30) : POISON_IN,
                               in ? (int32_t)lab_rng_below(rng, 2) : POISON_IN };
        p->field[0][i] = p->recs[i].key;
        p->field[1][i] = p->recs[i].value;
        p->field[2][i] = p->recs[i].flag;
    }
    if ((rc = lab_driver_input_set(p->w.d, &p->w.in[0], p->recs, err)) < 0)
        return rc;
    for (int f = 0; f < 3; f++)
        if ((rc = lab_driver_input_set(p->w.d, &p->w.in[1 + f], p->field[f], err)) < 0)
            return rc;
    return 0;
}

const lab_family_driver lab_driver_records_int = {
    .problem_size = sizeof(problem),
    .setup = setup,
    .fill = fill,
    .prepare = lab_words_prepare,
    .launch = launch,
    .verify = lab_words_verify,
};
