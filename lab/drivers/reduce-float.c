/*
 * reduce-float.c - the driver for the float sum family of notes 001 and 002:
 *
 *     __global__ void K(const float *pData, float *pPartial, unsigned int n)
 *
 * launched with grid = ceil(n / (block * unroll)); block b owns the elements
 * [b*block*unroll, (b+1)*block*unroll) of pData (read only).  A kernel gives
 * its sum in one of two ways, and the driver sees which from what it did:
 *  - "dev_sum": it adds into the module's `__device__ float dev_sum` (zeroed
 *    by the lab before every launch) and leaves pPartial alone -- the notes'
 *    atomic and tournament steps;
 *  - "partials": it writes block b's sum to pPartial[b] -- the notes'
 *    two-level kernel; the driver launches it again on the partial sums
 *    (into a second buffer) until one value is left, all levels timed as one.
 *
 * Inputs: x = k / 2048 with k uniform in [-2048, 2047]: exact in float, mean
 * zero, |x| <= 1.  The input is padded past n with a NaN, so a kernel that
 * adds an element it does not own gets NaN; pPartial is filled with another
 * NaN before each run and has a guard zone after the grid.
 *
 * Tolerance.  The oracle is the double sum S (exact for these inputs).  A
 * float addition rounds its result r by at most u|r|, u = 2^-24.  With
 * zero-mean inputs of r.m.s. sigma, every running or partial sum stays
 * within about 4 sigma sqrt(n) whatever the order of the additions, and the
 * n - 1 rounding errors, of either sign, add up like sqrt(n) of them; with a
 * margin of 2:
 *
 *     |got - S| <= tol(n) = 8 u sigma n
 *
 * (4.6 at n = 2^24, sigma = 0.577).  In practice every sum below 2^13 is
 * exact for these inputs (multiples of 2^-11), so a correct kernel is off by
 * next to nothing in any order, and each block sum (at most 2048 in size) is
 * exact: in "partials" mode every first-level partial must be within
 * tol(block * unroll) of its block's sum.  The CPU baseline is the notes'
 * serial float loop, sum += x[i].
 */
#include "common/driver.h"
#include "common/rng.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POISON_IN 0x7fc0beefu   /* pData past n: a NaN */
#define POISON_PART 0x7fc0deadu /* pPartial before a run: another NaN */
#define GUARD 64                /* floats after each level's grid in pPartial */
#define SUM_SYMBOL "dev_sum"
#define ULP_HALF 0x1p-24 /* u: unit roundoff of float */
#define TOL_FACTOR 8.0

typedef enum mode { MODE_UNKNOWN, MODE_DEV_SUM, MODE_PARTIALS } mode;

static const char *const mode_names[] = { "unknown", "dev_sum", "partials" };

typedef struct problem {
    lab_driver *d;
    unsigned long n;
    unsigned grid;     /* first level */
    size_t per_block;  /* block * unroll */
    size_t padded;     /* grid * per_block */
    size_t part_words; /* each partial buffer: roundup(grid, per_block) + GUARD */
    float *input;
    double *block_sum; /* per first-level block, exact */
    double sum, tol, block_tol;
    float *part; /* host copy of a partial buffer */
    lab_input in;
    lab_dptr d_part[2];
    lab_dptr d_sum[LAB_ROLE_COUNT];   /* 0: the module has no dev_sum */
    mode mode[LAB_ROLE_COUNT];        /* learnt by the checks */
    lab_dptr d_final[LAB_ROLE_COUNT]; /* where a run of launch_all left its sum */
} problem;

static double
tolerance(double sigma, double n)
{
    return TOL_FACTOR * ULP_HALF * sigma * n;
}

static int
find_sums(lab_driver *d, problem *p, lab_err *err)
{
    for (int r = 0; r < LAB_ROLE_COUNT; r++) {
        lab_err ignored = LAB_ERR_INIT;
        size_t bytes = 0;
        int rc;

        p->d_sum[r] = 0;
        if (!lab_driver_is_gpu_role(d, (lab_role)r))
            continue;
        rc = d->ops->symbol
                 ? d->ops->symbol(d->module[r], SUM_SYMBOL, &p->d_sum[r], &bytes, &ignored)
                 : LAB_ENOSYS;
        if (rc == LAB_ENOSYS)
            return lab_err_set(err, LAB_ENOSYS, "the %s backend cannot reach device variables",
                               d->ops->name);
        if (rc < 0)
            p->d_sum[r] = 0; /* no dev_sum: a "partials" kernel */
        else if (bytes != sizeof(float))
            return lab_err_set(err, LAB_EINVAL, "the %s's '%s' has %zu bytes; it must be one float",
                               lab_role_names[r], SUM_SYMBOL, bytes);
    }
    return 0;
}

/* Elements one block of role folds: its own block and unroll (the baseline's may differ). */
static size_t
role_per_block(const lab_driver *d, lab_role role)
{
    return (size_t)d->args.shape[role].block * d->args.shape[role].unroll;
}

static int
setup(lab_driver *d, void *problem_, lab_size *size, lab_err *err)
{
    const unsigned long n = size->n;
    problem *p = problem_;
    int rc;

    p->d = d;
    p->n = n;
    size->bytes = (double)n * sizeof(float);
    p->per_block = role_per_block(d, LAB_ROLE_STUDENT);
    p->grid = (unsigned)((n + p->per_block - 1) / p->per_block);
    p->padded = (size_t)p->grid * p->per_block;
    p->part_words = (p->grid + p->per_block - 1) / p->per_block * p->per_block + GUARD;
    for (int r = 0; r < LAB_ROLE_COUNT; r++) { /* room for every role's grid */
        const size_t pb = role_per_block(d, (lab_role)r), grid = (n + pb - 1) / pb;
        p->padded = grid * pb > p->padded ? grid * pb : p->padded;
        p->part_words = grid + GUARD > p->part_words ? grid + GUARD : p->part_words;
    }
    if (!(p->input = lab_driver_alloc(d, p->padded, sizeof(float), err)) ||
        !(p->block_sum = lab_driver_alloc(d, p->grid, sizeof(double), err)) ||
        !(p->part = lab_driver_alloc(d, p->part_words, sizeof(float), err)))
        return err->code;
    if ((rc = lab_driver_input(d, p->padded * sizeof(float), &p->in, err)) < 0 ||
        (rc = d->ops->alloc(d->dev, p->part_words * sizeof(float), &p->d_part[0], err)) < 0 ||
        (rc = d->ops->alloc(d->dev, p->part_words * sizeof(float), &p->d_part[1], err)) < 0)
        return rc;
    return find_sums(d, p, err);
}

/* One input: k / 2048 with k uniform in [-2048, 2047]. */
static float
draw(lab_rng *rng)
{
    return ((float)lab_rng_below(rng, 4096) - 2048.0f) / 2048.0f;
}

static int
fill(void *problem_, lab_rng *rng, lab_err *err)
{
    problem *p = problem_;
    const unsigned long n = p->n;
    double sq = 0, sigma;

    memset(p->block_sum, 0, p->grid * sizeof(double));
    p->sum = 0;
    for (size_t i = 0; i < p->padded; i++) {
        if (i >= n) {
            p->input[i] = lab_float_of_bits(POISON_IN);
            continue;
        }
        p->input[i] = draw(rng);
        p->block_sum[i / p->per_block] += p->input[i];
        sq += (double)p->input[i] * p->input[i];
    }
    for (size_t b = 0; b < p->grid; b++)
        p->sum += p->block_sum[b];
    /* sigma at least 1/2048: the tolerance never collapses to 0 for all-zero inputs */
    sigma = fmax(sqrt(sq / (double)n), 1.0 / 2048);
    p->tol = tolerance(sigma, (double)n);
    p->block_tol = tolerance(sigma, (double)p->per_block);
    return lab_driver_input_set(p->d, &p->in, p->input, err);
}

/* The input restored, both partial buffers poisoned, dev_sum zeroed. */
static int
prepare(void *ctx, lab_role role, lab_dim3 shape, lab_err *err)
{
    problem *p = ctx;
    lab_driver *d = p->d;
    int rc;

    (void)shape;
    if ((rc = lab_driver_input_restore(d, &p->in, err)) < 0)
        return rc;
    for (int k = 0; k < 2; k++)
        if ((rc = lab_dev_fill32(d->ops, d->dev, p->d_part[k], POISON_PART, p->part_words, err)) <
            0)
            return rc;
    return p->d_sum[role] ? lab_dev_fill32(d->ops, d->dev, p->d_sum[role], 0, 1, err) : 0;
}

static unsigned
grid_for(const lab_driver *d, lab_role role, size_t count)
{
    const size_t per_block = role_per_block(d, role);

    return (unsigned)((count + per_block - 1) / per_block);
}

static int
launch_level(lab_driver *d, const problem *p, lab_role role, lab_dptr in, lab_dptr out,
             size_t count, lab_err *err)
{
    unsigned int n = (unsigned int)count;
    void *args[] = { &in, &out, &n };
    lab_dim3 grid = { grid_for(d, role, count), 1, 1 }, block = { d->args.shape[role].block, 1, 1 };

    (void)p;
    return lab_driver_launch(d, role, grid, block, 0, args, err);
}

/* One whole reduction in the mode the checks learnt, asynchronously (for timing). */
static int
launch_all(void *ctx, lab_role role, lab_dim3 shape, lab_err *err)
{
    problem *p = ctx;
    lab_driver *d = p->d;
    size_t count = p->n;
    lab_dptr in = p->in.dev;
    int rc, k = 0;

    (void)shape;
    p->d_final[role] = p->d_sum[role];
    if (p->mode[role] == MODE_DEV_SUM)
        return launch_level(d, p, role, p->in.dev, p->d_part[0], p->n, err);
    do {
        if ((rc = launch_level(d, p, role, in, p->d_part[k], count, err)) < 0)
            return rc;
        in = p->d_final[role] = p->d_part[k];
        k ^= 1;
        count = grid_for(d, role, count);
    } while (count > 1);
    return 0;
}

/* A timed run's sum against the exact one. */
static int
verify_sum(void *ctx, lab_role role, lab_dim3 shape, lab_finding *out, lab_err *err)
{
    problem *p = ctx;
    float got;
    int rc;

    (void)shape;
    if ((rc = p->d->ops->copy_out(p->d->dev, &got, p->d_final[role], sizeof(got), err)) < 0)
        return rc;
    out->grid = p->grid;
    out->expected = p->sum;
    out->got = got;
    out->bad = !(fabs(got - p->sum) <= p->tol);
    if (out->bad)
        lab_finding_detail(out, "the sum is %.9g, expected %.9g (tolerance %.3g)", (double)got,
                           p->sum, p->tol);
    return 0;
}

/* The second problem of a timing size runs in the modes the checks found. */
static void
adopt(void *problem_, const void *checked)
{
    problem *p = problem_;
    const problem *c = checked;

    memcpy(p->mode, c->mode, sizeof(p->mode));
}

typedef struct verdict {
    bool ok;
    double got;
    unsigned levels;
    lab_finding why; /* its detail (lab_finding_detail) only */
} verdict;

/* After the first level: which mode the kernel used, or why neither.  The partials are
 * counted on the student's grid: a "partials" role shares the student's shape (the one
 * partials step, sum-two-level, has a dev_sum baseline of the same block and unroll). */
static void
classify(problem *p, lab_role role, float dev_sum, verdict *v)
{
    size_t written = 0, first_missing = p->grid;

    for (size_t b = 0; b < p->grid; b++) {
        if (lab_bits_of_float(p->part[b]) != POISON_PART)
            written++;
        else if (first_missing == p->grid)
            first_missing = b;
    }
    for (size_t i = p->grid; i < p->part_words; i++)
        if (lab_bits_of_float(p->part[i]) != POISON_PART) {
            lab_finding_detail(&v->why, "wrote pPartial[%zu], past the %u blocks", i, p->grid);
            return;
        }
    if (written == p->grid) {
        p->mode[role] = MODE_PARTIALS;
        v->ok = true;
    } else if (written == 0 && p->d_sum[role]) {
        p->mode[role] = MODE_DEV_SUM;
        v->ok = true;
        v->got = dev_sum;
    } else if (written == 0) {
        lab_finding_detail(&v->why,
                           "the file has no `__device__ float %s` and wrote no pPartial[] either",
                           SUM_SYMBOL);
    } else {
        lab_finding_detail(&v->why,
                           "pPartial[%zu] was never written (%zu of the %u blocks wrote theirs)",
                           first_missing, written, p->grid);
    }
}

/* The first-level partials against each block's exact sum. */
static void
check_blocks(const problem *p, verdict *v)
{
    for (size_t b = 0; b < p->grid; b++)
        if (!(fabs(p->part[b] - p->block_sum[b]) <= p->block_tol)) {
            size_t lo = b * p->per_block, hi = lo + p->per_block < p->n ? lo + p->per_block : p->n;
            v->ok = false;
            lab_finding_detail(&v->why,
                               "pPartial[%zu] (elements %zu..%zu): expected %.9g, got %.9g", b, lo,
                               hi - 1, p->block_sum[b], p->part[b]);
            return;
        }
}

/* Levels 2.. of a "partials" kernel, each into a freshly poisoned buffer. */
static int
next_levels(lab_driver *d, problem *p, lab_role role, verdict *v, lab_err *err)
{
    size_t count = p->grid;
    int k = 0, rc;

    v->got = p->part[0];
    v->levels = 1;
    while (count > 1) {
        if ((rc = lab_dev_fill32(d->ops, d->dev, p->d_part[k ^ 1], POISON_PART, p->part_words,
                                 err)) < 0 ||
            (rc = launch_level(d, p, role, p->d_part[k], p->d_part[k ^ 1], count, err)) < 0 ||
            (rc = d->ops->sync(d->dev, err)) < 0 ||
            (rc = d->ops->copy_out(d->dev, &p->part[0], p->d_part[k ^ 1], sizeof(float), err)) < 0)
            return rc;
        k ^= 1;
        count = grid_for(d, role, count);
        v->got = p->part[0];
        v->levels++;
    }
    return 0;
}

static void
add_case(lab_driver *d, const problem *p, lab_role role, const verdict *v)
{
    cJSON *c = cJSON_CreateObject();

    if (!c)
        return;
    cJSON_AddNumberToObject(c, "size", (double)p->n);
    cJSON_AddStringToObject(c, "role", lab_role_names[role]);
    cJSON_AddNumberToObject(c, "grid", p->grid);
    cJSON_AddStringToObject(c, "mode", mode_names[p->mode[role]]);
    cJSON_AddNumberToObject(c, "levels", v->levels);
    cJSON_AddBoolToObject(c, "correct", v->ok);
    cJSON_AddNumberToObject(c, "expected", p->sum);
    if (isfinite(v->got))
        cJSON_AddNumberToObject(c, "got", v->got);
    else
        cJSON_AddNullToObject(c, "got");
    cJSON_AddNumberToObject(c, "tolerance", p->tol);
    lab_driver_add_detail(c, &v->why);
    lab_driver_push_case(d, role, c);
}

/* Run one role once at this size (at its own shape, not the check's) and record the case.
 * Returns <0 when the device failed. */
static int
check(void *ctx, lab_role role, lab_dim3 shape, lab_err *err)
{
    problem *p = ctx;
    lab_driver *d = p->d;
    verdict v = { .ok = false, .got = NAN, .levels = 1 };
    float dev_sum = 0;
    int rc;

    (void)shape;
    p->mode[role] = MODE_UNKNOWN; /* the harness prepared the run: poisoned, dev_sum zeroed */
    if ((rc = launch_level(d, p, role, p->in.dev, p->d_part[0], p->n, err)) < 0)
        return lab_driver_fail(d, role, "launch", p->n, err);
    if ((rc = d->ops->sync(d->dev, err)) < 0 ||
        (rc = d->ops->copy_out(d->dev, p->part, p->d_part[0], p->part_words * sizeof(float), err)) <
            0 ||
        (p->d_sum[role] &&
         (rc = d->ops->copy_out(d->dev, &dev_sum, p->d_sum[role], sizeof(dev_sum), err)) < 0))
        return lab_driver_fail(d, role, "run", p->n, err);
    classify(p, role, dev_sum, &v);
    if (v.ok && p->mode[role] == MODE_PARTIALS) {
        check_blocks(p, &v);
        if (v.ok && (rc = next_levels(d, p, role, &v, err)) < 0)
            return lab_driver_fail(d, role, "run", p->n, err);
    }
    if (v.ok && !(fabs(v.got - p->sum) <= p->tol)) {
        v.ok = false;
        if (isnan(v.got))
            lab_finding_detail(&v.why,
                               "the sum is %.9g, expected %.9g (tolerance %.3g): NaN, the lab's "
                               "poison past n, was added in",
                               v.got, p->sum, p->tol);
        else
            lab_finding_detail(&v.why, "the sum is %.9g, expected %.9g (tolerance %.3g)", v.got,
                               p->sum, p->tol);
    }
    add_case(d, p, role, &v);
    return 0;
}

/* The notes' host sum: one float accumulator, in index order. */
static void
serial_sum(void *ctx)
{
    const problem *p = ctx;
    volatile float sink;
    float sum = 0;

    for (size_t i = 0; i < p->n; i++)
        sum += p->input[i];
    sink = sum; /* kept, so the loop is not optimized away */
    (void)sink;
}

/* The serial sum's problem alone (--cpu-baseline-only): n inputs drawn as fill draws them, in
 * host memory; nothing on a device. */
static int
cpu_setup(lab_driver *d, void *problem_, lab_size *size, lab_rng *rng, lab_err *err)
{
    problem *p = problem_;

    p->d = d;
    p->n = size->n;
    size->bytes = (double)size->n * sizeof(float);
    if (!(p->input = lab_driver_alloc(d, p->n, sizeof(float), err)))
        return err->code;
    for (size_t i = 0; i < p->n; i++)
        p->input[i] = draw(rng);
    return 0;
}

const lab_family_driver lab_driver_reduce_float = {
    .problem_size = sizeof(problem),
    .setup = setup,
    .fill = fill,
    .prepare = prepare,
    .launch = launch_all,
    .verify = verify_sum,
    .check = check,
    .adopt = adopt,
    .cpu = serial_sum,
    .cpu_setup = cpu_setup,
};
