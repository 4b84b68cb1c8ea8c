/*
 * slurm.h - a batch spread over a Slurm cluster (`cudalab batch --slurm`).
 *
 * lab_slurm_prepare splits the submissions into chunks of opts.chunk, writes
 * <out>/slurm/list-<i> (one path a line), the array job's script
 * <out>/slurm/array.sh (task i runs `cudalab batch EX --from list-<i> --out
 * <out>/parts/<i>`) and the merge job's script <out>/slurm/merge.sh
 * (`cudalab gradebook merge --out <out> <out>/parts/<every i>`).
 * lab_slurm_submit submits the array with sbatch and the merge job with
 * --dependency=afterany:<array>, optionally waiting for the merge (sbatch
 * --wait).  sbatch comes from PATH; SLURM_CONF and the rest of the
 * environment go with the jobs (sbatch's default --export=ALL).
 */
#ifndef LAB_BATCH_SLURM_H
#define LAB_BATCH_SLURM_H

#include <stdbool.h>
#include <stddef.h>

#include "lab/util/buf.h"
#include "lab/util/err.h"

typedef struct lab_slurm_opts {
    const char *self; /* the cudalab program, absolute */
    const char *exercise;
    const char *const *subs;
    size_t nsubs;
    const char *out; /* absolute */
    size_t chunk;    /* submissions per array task, >= 1 */
    int jobs;        /* --jobs of each task */
    bool sandbox;
    bool gradescope;
    const char *partition; /* or NULL */
    const char *gres;      /* "gpu:1", or NULL */
} lab_slurm_opts;

typedef struct lab_slurm_job {
    size_t tasks;
    lab_buf array_script; /* path */
    lab_buf merge_script;
    char array_id[64]; /* after submit */
    char merge_id[64];
} lab_slurm_job;

void lab_slurm_job_init(lab_slurm_job *j);
void lab_slurm_job_release(lab_slurm_job *j);
int lab_slurm_prepare(const lab_slurm_opts *o, lab_slurm_job *j, lab_err *err);
/* wait: until the merge job ends; its failure is LAB_ECHILD. */
int lab_slurm_submit(lab_slurm_job *j, bool wait, double timeout_s, lab_err *err);

#endif
