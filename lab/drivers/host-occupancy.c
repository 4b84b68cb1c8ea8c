/*
 * host-occupancy.c - the driver for the occupancy-calculator family (host
 * code, kind = host):
 *
 *     int maxActiveBlocksPerSM(const OccDevice *dev, int threadsPerBlock,
 *                              int regsPerThread, int smemPerBlock)
 *
 * the student's theoretical occupancy: how many blocks of a kernel fit on one
 * SM, from the device's limits (struct OccDevice, filled from the GPU's
 * attributes) and the kernel's resources.  The answer is the CUDA occupancy
 * API's: for every kernel of kernels/occupancy.cu (few, some and many
 * registers; static shared memory), every block size of a list (1 to 1024,
 * multiples of 32 and not) and each size of the exercise taken as bytes of
 * dynamic shared memory, the driver reads the kernel's registers and static
 * shared memory and asks cuOccupancyMaxActiveBlocksPerMultiprocessor; the
 * student's function, run in a child process of its own (common/host.h), must
 * give the same number for every configuration.  The configurations are
 * lab/catalog/occupancy-cases.def's.  Without a GPU the grader computes the
 * same numbers from the lab's tables (lab/grade/expected.h) and hands them
 * over with --occupancy-tables and its companions; then no device is opened
 * and the findings name the tables instead of the API.
 */
#include "common/driver.h"
#include "common/host.h"
#include "common/report.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CALL_TIMEOUT_S 20.0

/* The student's view of the device; the layout is the task's (exercises/occupancy/calculator). */
typedef struct occ_device {
    int warpSize;
    int maxThreadsPerBlock;
    int maxThreadsPerSM;
    int maxBlocksPerSM;
    int regsPerSM;
    int regsPerBlock;
    int regAllocUnit;
    int subPartitions;
    int smemPerSM;
    int smemPerBlock;
    int smemReservedPerBlock;
    int smemAllocUnit;
} occ_device;

typedef int (*occ_fn)(const occ_device *dev, int threads, int regs, int smem);

static const char *const kernels[] = {
#define LAB_OCC_KERNEL(NAME) #NAME,
#define LAB_OCC_BLOCK(THREADS)
#include "lab/catalog/occupancy-cases.def"
};
static const int block_sizes[] = {
#define LAB_OCC_KERNEL(NAME)
#define LAB_OCC_BLOCK(THREADS) THREADS,
#include "lab/catalog/occupancy-cases.def"
};
#define NCONFIGS (ARRAY_SIZE(kernels) * ARRAY_SIZE(block_sizes))

typedef struct config {
    const char *kernel;
    int threads, regs, smem; /* smem: static + dynamic */
    int expected;            /* the occupancy API's (or the tables') blocks per SM */
} config;

/* Shared with the child: the device, the configurations' inputs, the answers. */
typedef struct call_area {
    occ_device dev;
    int n;
    int threads[NCONFIGS], regs[NCONFIGS], smem[NCONFIGS];
    int got[NCONFIGS];
} call_area;

static void
call_all(void *function, void *shared)
{
    call_area *a = shared;

    for (int i = 0; i < a->n; i++)
        a->got[i] = ((occ_fn)function)(&a->dev, a->threads[i], a->regs[i], a->smem[i]);
}

/* Register and shared-memory granularities, sub-partitions: CUDA's occupancy
 * calculator (cuda_occupancy.h) for compute capability 7.0 and later. */
static void
fill_device(const lab_dev_info *i, occ_device *o)
{
    o->warpSize = i->warp_size;
    o->maxThreadsPerBlock = i->max_threads_per_block;
    o->maxThreadsPerSM = i->max_threads_per_sm;
    o->maxBlocksPerSM = i->max_blocks_per_sm;
    o->regsPerSM = i->regs_per_sm;
    o->regsPerBlock = i->regs_per_block;
    o->regAllocUnit = 256;
    o->subPartitions = 4;
    o->smemPerSM = i->smem_per_sm;
    o->smemPerBlock = i->smem_per_block;
    o->smemReservedPerBlock = i->smem_reserved_per_block;
    o->smemAllocUnit = i->cc_major >= 8 ? 128 : 256;
}

/* The occupancy API's answers for dynamic shared memory dyn; fills c[NCONFIGS]. */
static int
ask_api(lab_driver *d, lab_module *m, unsigned long dyn, config *c, lab_err *err)
{
    size_t k = 0;
    int rc;

    for (size_t i = 0; i < ARRAY_SIZE(kernels); i++)
        for (size_t b = 0; b < ARRAY_SIZE(block_sizes); b++, k++) {
            lab_occupancy o;
            if ((rc = d->ops->occupancy(m, kernels[i], (unsigned)block_sizes[b], dyn, &o, err)) < 0)
                return rc;
            c[k] = (config){ kernels[i], block_sizes[b], o.regs, o.static_smem + (int)dyn,
                             o.blocks_per_sm };
        }
    return 0;
}

typedef struct problem {
    lab_driver *d;
    unsigned long dyn; /* bytes of dynamic shared memory: the exercise's size */
    occ_device dev;    /* what the student's function is given */
    char source[64];   /* who gives the expected numbers: "the CUDA occupancy API says" */
    config c[NCONFIGS];
} problem;

/* Up to max numbers >= 0 separated by any of seps; -1 when s is not such a list. */
static int
parse_ints(const char *s, const char *seps, int *v, size_t max, size_t *n)
{
    char *end;
    long x;

    for (*n = 0;; s = end + 1) {
        if (*n == max || *s < '0' || *s > '9')
            return -1;
        errno = 0;
        x = strtol(s, &end, 10);
        if (errno || x > INT_MAX)
            return -1;
        v[(*n)++] = (int)x;
        if (!*end)
            return 0;
        if (!strchr(seps, *end))
            return -1;
    }
}

/* The grader's numbers for size index s (lab/grade/expected.h): the device, each kernel's
 * resources and every configuration's answer. */
static int
from_tables(lab_driver *d, size_t s, problem *p, lab_err *err)
{
    const lab_driver_args *a = &d->args;
    int dev[12], res[2 * ARRAY_SIZE(kernels)], expected[16 * NCONFIGS];
    size_t ndev, nres, nexpected, k = 0;

    if (s >= a->nsizes)
        return lab_err_set(err, LAB_EINVAL, "size %lu is not one of --sizes", p->dyn);
    if (!a->occupancy.device || !a->occupancy.kernels || !a->occupancy.expected ||
        parse_ints(a->occupancy.device, ",", dev, ARRAY_SIZE(dev), &ndev) < 0 ||
        ndev != ARRAY_SIZE(dev) ||
        parse_ints(a->occupancy.kernels, ",:", res, ARRAY_SIZE(res), &nres) < 0 ||
        nres != ARRAY_SIZE(res) ||
        parse_ints(a->occupancy.expected, ",", expected, ARRAY_SIZE(expected), &nexpected) < 0 ||
        nexpected != a->nsizes * NCONFIGS)
        return lab_err_set(err, LAB_EINVAL,
                           "--occupancy-tables needs --occupancy-device (12 numbers), "
                           "--occupancy-kernels (%zu pairs R:S) and --occupancy-expected (%zu "
                           "numbers)",
                           ARRAY_SIZE(kernels), a->nsizes * NCONFIGS);
    p->dev = (occ_device){ dev[0], dev[1], dev[2], dev[3], dev[4],  dev[5],
                           dev[6], dev[7], dev[8], dev[9], dev[10], dev[11] };
    for (size_t i = 0; i < ARRAY_SIZE(kernels); i++)
        for (size_t b = 0; b < ARRAY_SIZE(block_sizes); b++, k++)
            p->c[k] = (config){ kernels[i], block_sizes[b], res[2 * i],
                                res[2 * i + 1] + (int)p->dyn, expected[s * NCONFIGS + k] };
    return 0;
}

/* The reference numbers come from the GPU, the answers from the host code: the CUDA device and
 * occupancy.ptx, opened once for every size; with --occupancy-tables the grader's numbers, and
 * nothing to open. */
static int
begin(lab_driver *d, lab_err *err)
{
    lab_fmtargs why;
    int rc;

    if (d->args.occupancy.tables)
        return 0; /* the grader's numbers: no GPU to open */
    d->ops = &lab_dev_cuda;
    err->args = &why; /* the reason in the learner's language too (lab_err_set_msg) */
    rc = d->ops->open(0, &d->dev, err);
    if (rc < 0) {
        d->failed = true;
        lab_report_set_no_gpu(d->report, err);
    }
    err->args = NULL;
    if (rc < 0)
        return rc;
    if ((rc = d->ops->info(d->dev, &d->info, err)) < 0 ||
        (rc = lab_dev_load_beside(d->ops, d->dev, d->args.lab_kernels, "occupancy.ptx",
                                  &d->family_module, err)) < 0)
        return lab_driver_fail(d, LAB_ROLE_REFERENCE, "setup", 0, err);
    lab_report_set_device(d->report, &d->info);
    return 0;
}

/* The size is the dynamic shared memory per block: the API's answers for every kernel and
 * block size at it are what the student's function must give. */
static int
setup(lab_driver *d, void *problem_, lab_size *size, lab_err *err)
{
    problem *p = problem_;
    size_t s = 0;

    p->d = d;
    p->dyn = size->n;
    if (d->args.occupancy.tables) {
        while (s < d->args.nsizes && d->args.sizes[s] != size->n)
            s++;
        if (from_tables(d, s, p, err) < 0)
            return lab_driver_fail(d, LAB_ROLE_REFERENCE, "setup", p->dyn, err);
        snprintf(p->source, sizeof(p->source), "the lab's tables for %.16s say",
                 d->args.occupancy.tables);
        return 0;
    }
    fill_device(&d->info, &p->dev);
    snprintf(p->source, sizeof(p->source), "the CUDA occupancy API says");
    if (ask_api(d, d->family_module, p->dyn, p->c, err) < 0)
        return lab_driver_fail(d, LAB_ROLE_REFERENCE, "setup", p->dyn, err);
    return 0;
}

static int
check(void *ctx, lab_role role, lab_dim3 shape, lab_err *err)
{
    problem *p = ctx;
    const config *c = p->c;
    lab_finding f = { .first_bad = -1 };
    call_area *a;
    size_t bad = 0;
    long first_bad = -1;
    int rc;

    (void)shape;
    if (!(a = lab_host_shared_alloc(sizeof(*a), err)))
        return lab_driver_fail(p->d, role, "setup", p->dyn, err);
    a->dev = p->dev;
    a->n = (int)NCONFIGS;
    for (size_t i = 0; i < NCONFIGS; i++) {
        a->threads[i] = c[i].threads;
        a->regs[i] = c[i].regs;
        a->smem[i] = c[i].smem;
        a->got[i] = -1;
    }
    if ((rc = lab_driver_call_host(p->d, role, p->dyn, a, CALL_TIMEOUT_S, err)) < 0)
        goto out;
    for (size_t i = 0; i < NCONFIGS; i++) {
        if (a->got[i] == c[i].expected || bad++)
            continue;
        first_bad = (long)i;
        lab_finding_detail(
            &f,
            "%d-thread blocks of %d-register threads, %d B of shared memory per block "
            "(kernel %s): blocks per SM returned %d, %s %d",
            c[i].threads, c[i].regs, c[i].smem, c[i].kernel, a->got[i], p->source, c[i].expected);
    }
    lab_finding_count(&f, 0, NCONFIGS, bad, first_bad);
    rc = lab_driver_add_case(p->d, p->dyn, role, &f, err);
out:
    lab_host_shared_free(a, sizeof(*a));
    return rc;
}

const lab_family_driver lab_driver_host_occupancy = {
    .problem_size = sizeof(problem),
    .begin = begin,
    .setup = setup,
    .check = check,
    .host_call = call_all,
};
