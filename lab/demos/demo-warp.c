/*
 * demo-warp.c - the warp chapter's demo: how the threads of a block are cut
 * into warps, measured by kernels/warp.cu (each thread records its linear id,
 * the hardware lane it runs in, the mask of lanes active with it and the
 * linear id of its warp's first lane).  Three tables: the warps of the notes'
 * 40x2 block, the warps of 1D, 2D and 3D blocks with the first and last
 * thread of each (the linear order x, then y, then z), and warps per block
 * against ceil(threads / 32) for several shapes.  Nothing is timed, so it
 * runs on the simulator too.
 */
#include "common/demodrv.h"
#include "lab/util/i18n.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RECORD "_Z10warpRecordPjS_S_S_"
#define MAX_THREADS 1024

static const lab_dim3 layout_shapes[] = { { 40, 2, 1 }, { 100, 1, 1 }, { 8, 4, 2 }, { 16, 3, 3 } };
static const lab_dim3 count_shapes[] = { { 32, 1, 1 },  { 33, 1, 1 },   { 40, 2, 1 },
                                         { 100, 1, 1 }, { 128, 1, 1 },  { 8, 4, 2 },
                                         { 16, 3, 3 },  { 1000, 1, 1 }, { 32, 32, 1 } };
#define NLAYOUT (sizeof(layout_shapes) / sizeof(layout_shapes[0]))
#define NCOUNT (sizeof(count_shapes) / sizeof(count_shapes[0]))

typedef struct record {
    unsigned threads;
    unsigned linear[MAX_THREADS], lane[MAX_THREADS], mask[MAX_THREADS], leader[MAX_THREADS];
} record;

typedef struct buffers {
    lab_dptr linear, lane, mask, leader;
} buffers;

/* One block of shape s; what every thread recorded into r. */
static int
measure(lab_demodrv *d, lab_module *m, buffers *b, lab_dim3 s, record *r, lab_err *err)
{
    lab_dim3 grid = { 1, 1, 1 };
    void *args[] = { &b->linear, &b->lane, &b->mask, &b->leader };
    size_t bytes;
    int rc;

    r->threads = s.x * s.y * s.z;
    bytes = r->threads * sizeof(unsigned);
    if ((rc = d->ops->launch(m, RECORD, grid, s, 0, args, err)) < 0 ||
        (rc = d->ops->sync(d->dev, err)) < 0 ||
        (rc = d->ops->copy_out(d->dev, r->linear, b->linear, bytes, err)) < 0 ||
        (rc = d->ops->copy_out(d->dev, r->lane, b->lane, bytes, err)) < 0 ||
        (rc = d->ops->copy_out(d->dev, r->mask, b->mask, bytes, err)) < 0 ||
        (rc = d->ops->copy_out(d->dev, r->leader, b->leader, bytes, err)) < 0)
        return rc;
    return 0;
}

static void
shape_name(lab_dim3 s, char *buf, size_t size)
{
    lab_dim3_format(s, "(", ",", ")", buf, size);
}

static void
thread_name(lab_dim3 s, unsigned t, char *buf, size_t size)
{
    unsigned x = t % s.x, y = t / s.x % s.y, z = t / (s.x * s.y);

    if (s.z > 1)
        snprintf(buf, size, "(%u,%u,%u)", x, y, z);
    else if (s.y > 1)
        snprintf(buf, size, "(%u,%u)", x, y);
    else
        snprintf(buf, size, "(%u)", x);
}

/* The distinct warps of r (threads with one leader), in order of their leader. */
static unsigned
count_warps(const record *r)
{
    unsigned n = 0;

    for (unsigned t = 0; t < r->threads; t++)
        n += r->leader[t] == t;
    return n;
}

/* Does every thread sit at linear id t, in lane t % 32, led by the thread 32 * (t / 32)? */
static bool
consistent(const record *r)
{
    for (unsigned t = 0; t < r->threads; t++)
        if (r->linear[t] != t || r->lane[t] != t % 32 || r->leader[t] != t / 32 * 32)
            return false;
    return true;
}

static int
layout_section(lab_demodrv *d, lab_module *m, buffers *b, record *r, lab_err *err)
{
    cJSON *rows = lab_demodrv_section(
        d, N_("Which threads share a warp"),
        N_("One block of each shape; every thread recorded its lane and the first thread of its "
           "warp. The linear id is x + y * block.x + z * block.x * block.y, and warps take 32 "
           "consecutive linear ids: in a 40x2 block the first warp is row 0's threads 0-31, the "
           "second row 0's last 8 and row 1's first 24, the third row 1's last 16 threads and 16 "
           "lanes with no thread at all."),
        N_("block"), "", N_("warp"), "", N_("first thread"), "", N_("last thread"), "",
        N_("linear ids"), "", N_("active lanes"), "", N_("inactive lanes"), "", N_("active mask"),
        "", NULL);
    bool ok = true;
    int rc;

    for (size_t i = 0; i < NLAYOUT; i++) {
        lab_dim3 s = layout_shapes[i];
        char shape[48];
        if ((rc = measure(d, m, b, s, r, err)) < 0)
            return rc;
        ok &= consistent(r);
        shape_name(s, shape, sizeof(shape));
        for (unsigned t = 0; t < r->threads; t++) {
            unsigned last = t, active = (unsigned)__builtin_popcount(r->mask[t]);
            char first_s[48], last_s[48], ids[32], mask[16];
            if (r->leader[t] != t)
                continue;
            while (last + 1 < r->threads && r->leader[last + 1] == t)
                last++;
            thread_name(s, t, first_s, sizeof(first_s));
            thread_name(s, last, last_s, sizeof(last_s));
            snprintf(ids, sizeof(ids), "%u-%u", r->linear[t], r->linear[last]);
            snprintf(mask, sizeof(mask), "0x%08x", r->mask[t]);
            lab_demodrv_row(rows, "snsssnns", shape, (double)(t / 32), first_s, last_s, ids,
                            (double)active, (double)(32 - active), mask);
        }
    }
    if (!ok)
        lab_demodrv_note(d, "some thread did not sit in lane linear id %% 32 of warp linear id "
                            "/ 32: the hardware cut this block differently from the notes");
    return 0;
}

static int
count_section(lab_demodrv *d, lab_module *m, buffers *b, record *r, lab_err *err)
{
    cJSON *rows = lab_demodrv_section(
        d, N_("Warps per block = ceil(threads / 32)"),
        N_("The warps each block was measured to occupy, beside the formula. A block always gets "
           "whole warps: the lanes past its last thread are allocated (registers and a warp "
           "slot) but idle, so a block whose size is not a multiple of 32 wastes part of the SM."),
        N_("block"), "", N_("threads"), "", N_("warps measured"), "", N_("ceil(threads / 32)"), "",
        N_("thread slots"), "", N_("idle lanes"), "", N_("lanes in last warp"), "", NULL);
    int rc;

    for (size_t i = 0; i < NCOUNT; i++) {
        lab_dim3 s = count_shapes[i];
        unsigned warps, formula;
        char shape[48];
        if ((rc = measure(d, m, b, s, r, err)) < 0)
            return rc;
        warps = count_warps(r);
        formula = (r->threads + 31) / 32;
        shape_name(s, shape, sizeof(shape));
        lab_demodrv_row(rows, "snnnnnn", shape, (double)r->threads, (double)warps, (double)formula,
                        (double)(warps * 32), (double)(warps * 32 - r->threads),
                        (double)__builtin_popcount(r->mask[r->threads - 1]));
    }
    return 0;
}

static int
run(lab_demodrv *d, lab_err *err)
{
    lab_module *m = NULL;
    buffers b = { 0 };
    record *r = calloc(1, sizeof(*r));
    int rc = 0;

    if (!r)
        rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
    if (rc < 0 || (rc = lab_demodrv_load(d, "warp.ptx", &m, err)) < 0 ||
        (rc = d->ops->alloc(d->dev, MAX_THREADS * 4, &b.linear, err)) < 0 ||
        (rc = d->ops->alloc(d->dev, MAX_THREADS * 4, &b.lane, err)) < 0 ||
        (rc = d->ops->alloc(d->dev, MAX_THREADS * 4, &b.mask, err)) < 0 ||
        (rc = d->ops->alloc(d->dev, MAX_THREADS * 4, &b.leader, err)) < 0)
        lab_demodrv_fail(d, "setup", err);
    else if ((rc = layout_section(d, m, &b, r, err)) < 0)
        lab_demodrv_fail(d, "warps of a block", err);
    else if ((rc = count_section(d, m, &b, r, err)) < 0)
        lab_demodrv_fail(d, "warps per block", err);
    else
        lab_demodrv_note(d,
                         "measured on %s: the cut into warps is the same on every GPU "
                         "since the notes' Fermi, and the simulator follows it",
                         d->info.name);
    free(r);
    return rc;
}

const lab_demo_driver lab_demo_warp = {
    .chapter = "warp",
    .run = run,
};
