/*
 * gpus.h - the GPUs a batch spreads a class over, and which grader goes to which.
 *
 * A node has 1, 2, 4 or 8 GPUs; timing must never share one (docs/design/timing.md), and
 * every grading holds its GPU's lock while it times there (lab/platform/devlock.h, keyed by the
 * GPU's UUID).  So a batch gives each grader one GPU: the grader's CUDA_VISIBLE_DEVICES names
 * that GPU alone (its UUID, which means the same GPU whatever numbering the batch's own
 * CUDA_VISIBLE_DEVICES, CUDA_DEVICE_ORDER or a Slurm allocation gives), so its device probe,
 * its driver (which opens device 0 of what it sees) and its sandbox all agree on it; the
 * graders on one GPU queue for its lock, graders on different GPUs never wait for each other,
 * and compiles and the simulator's checks share the CPU cores.
 *
 * Call order: lab_batch_gpus_find (a device probe: every GPU the drivers see, or those
 * `--gpus LIST` names); lab_batch_gpus_check (each GPU as a grader pinned to it sees it, in the
 * sandbox when the batch grades in one); then, per grader, lab_batch_gpus_pick under the
 * batch's own lock.  Nothing here is freed: the set is a value.
 */
#ifndef LAB_BATCH_GPUS_H
#define LAB_BATCH_GPUS_H

#include <stddef.h>

#include "lab/grade/lab.h"
#include "lab/util/err.h"

#define LAB_BATCH_MAX_GPUS 16

typedef struct lab_batch_gpu {
    int index;           /* CUDA's number for it as the batch sees it (the probe's order) */
    char name[256];      /* "NVIDIA H200" */
    char uuid[48];       /* "GPU-...", "" where the driver tells none */
    char pci_bus_id[32]; /* "00000000:18:00.0", "" where none */
    char pin[64];        /* CUDA_VISIBLE_DEVICES for a grader pinned to it; "": none needed */
} lab_batch_gpu;

typedef struct lab_batch_gpus {
    lab_batch_gpu gpu[LAB_BATCH_MAX_GPUS];
    size_t n;           /* 0: no GPU, the graders run on the simulator */
    char why_none[512]; /* when n is 0 */
} lab_batch_gpus;

/* The GPUs the drivers see (a device probe, lab/grade/runner.h): all of them, or those list
 * names, comma-separated, each by CUDA's number as this process sees it or by UUID ("0,1",
 * "GPU-8932f937-..."); list NULL means all.  With no GPU: n = 0 and why_none, or, when a list
 * was given, LAB_ENODEV.  LAB_EINVAL for a list that names a GPU that is not there, or one twice.
 */
int lab_batch_gpus_find(lab *l, const char *list, lab_batch_gpus *out, lab_err *err);
/* Each GPU as a grader pinned to it will see it: the device probe, pinned to it and in the
 * sandbox when the lab is sandboxed, must open that very GPU (its UUID).  LAB_ENODEV naming the
 * GPU and what the driver said (a library the sandbox lacks, no device inside it) otherwise. */
int lab_batch_gpus_check(lab *l, const lab_batch_gpus *g, lab_err *err);
/* Which of n GPUs the next grader goes to: the one with the fewest graders working on it now
 * (working[i]), then the fewest given so far (given[i]), then the first. */
size_t lab_batch_gpus_pick(const size_t *working, const size_t *given, size_t n);

#endif
