/*
 * model.h - a performance model of a GPU: the time of one kernel launch from the simulator's
 * exact counts of it (warp instructions, global requests and sectors, the rounds of loads
 * on each warp's path, shared wavefronts, atomics), the launch's shape and the GPU's parameters
 * (the architecture table's limits, the datasheet's SMs, clock and bandwidth, and a few rates
 * fitted on the GPU's measured times by tests/model/fit.py; docs/bench/model.md).
 *
 * The time is a launch's fixed cost plus the bounds that overlap, each the time one resource
 * of the GPU would need alone:
 *   memory   DRAM bytes / (peak × dram_eff): the distinct sectors each block loaded (the L2
 *            is flushed before a timed run and serves a block's re-reads; re-reads across
 *            blocks where the inputs fit in it, or one block's share of the re-reads does),
 *            and the stores' × write_back, at most the buffers' bytes
 *   l2       every sector through the L2 / l2_gbps
 *   l1       every sector a request touched / (SMs in use × l1_spc × clock): an uncoalesced
 *            request costs the SM's load pipeline a cycle per few sectors
 *   issue    warp instructions / (SMs in use × ipc × clock), less divergent_insts per
 *            divergent branch (what ptxas predicates away; the H100's fit puts it near 0)
 *   shared   shared wavefronts (bank conflicts included) / (SMs in use × shared_wpc × clock)
 *   latency  rounds of loads / (SMs in use × resident warps) × latency_ns: the loads'
 *            latencies on each warp's longest path (the simulator counts them: loads in flight
 *            together are one), while the SM's resident warps wait together: too few warps, or
 *            too few loads in flight per warp, to cover them
 *   atomics  global atomics × atom_ns, counted as the simulator does (per sector, the most lanes
 *            at one address: they serialize in the L2),
 *            shared atomic requests × satom_cycles per SM
 * combined as a p-norm (p = overlap: high is the largest alone), times 1 + ramp × (warps per
 * block - 1) where blocks turn over (more than one round of them per SM): a new block's warps
 * start one after another while its slots wait, the longer the larger the block (a matrix sum
 * is 12 % slower in blocks of 1024 threads than of 256 on the H100); none in one wave.  The
 * time is at least
 *   blocks   blocks on the busiest SM × (block_ns + warps per block × warp_ns): starting a
 *            block and its warps, a pipeline beside the others, not one of their p-norm (one
 *            element per thread pays it: the divergence chapter's kernels, a matrix sum in
 *            blocks of 128 threads, and in blocks of 256 as much as the memory).  "SMs in
 * use" is the grid over the busiest SM's blocks, which counts the tail of the last wave and grids
 * smaller than the GPU; resident warps follow the occupancy calculator's rules: warps, blocks,
 * shared memory per block and registers per thread (lab_model_blocks_per_sm).
 *
 * Counts scale from two simulated sizes to the timed one (lab_model_scale): every count is a
 * sum over the launch's work, so all grow with the size's work (elements, or a matrix's
 * elements); a fixed grid (a grid-stride loop) keeps a part per launch, grown with the SMs.
 *
 * No allocation, no state, no printing: lab_model_params_load fills parameters from an INI
 * file, lab_model_time computes.
 */
#ifndef LAB_MODEL_MODEL_H
#define LAB_MODEL_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "lab/util/err.h"
#include "lab/util/strvec.h"

typedef enum lab_model_count {
#define LAB_MODEL_COUNT(ID, NAME, WHAT) LAB_MODEL_C_##ID,
#define LAB_MODEL_PARAM(ID, NAME, KIND, DEFAULT, MIN, MAX, WHAT)
#include "lab/model/model.def"
    LAB_MODEL_C_COUNT
} lab_model_count;

typedef enum lab_model_param {
#define LAB_MODEL_COUNT(ID, NAME, WHAT)
#define LAB_MODEL_PARAM(ID, NAME, KIND, DEFAULT, MIN, MAX, WHAT) LAB_MODEL_P_##ID,
#include "lab/model/model.def"
    LAB_MODEL_P_COUNT
} lab_model_param;

/* What bounds a modelled time, largest share first in lab_model_why.order.  The order is the
 * arithmetic's: those before BLOCKS overlap as a p-norm, BLOCKS is a floor, LAUNCH is added. */
typedef enum lab_model_bound {
    LAB_MODEL_BOUND_MEMORY,
    LAB_MODEL_BOUND_L2,
    LAB_MODEL_BOUND_L1,
    LAB_MODEL_BOUND_ISSUE,
    LAB_MODEL_BOUND_SHARED,
    LAB_MODEL_BOUND_LATENCY,
    LAB_MODEL_BOUND_ATOMICS,
    LAB_MODEL_BOUND_BLOCKS,
    LAB_MODEL_BOUND_LAUNCH,
    LAB_MODEL_BOUND_COUNT
} lab_model_bound;

extern const char *const lab_model_count_names[LAB_MODEL_C_COUNT];
extern const char *const lab_model_param_names[LAB_MODEL_P_COUNT];
extern const char *const lab_model_bound_names[LAB_MODEL_BOUND_COUNT];

/* One launch's counts, indexed by lab_model_count. */
typedef struct lab_model_counts {
    double c[LAB_MODEL_C_COUNT];
} lab_model_counts;

/* A GPU: its name, its parameters (indexed by lab_model_param) and the model's measured error
 * on it (from the data file's [validation] section; 0 when not measured): on the kernels it was
 * fitted on, and apart, on kernels it never was (the held-out set: tests/model/fit.py --check). */
typedef struct lab_model_gpu {
    char name[64]; /* "H100" */
    double p[LAB_MODEL_P_COUNT];
    double median_abs_error;         /* fraction, e.g. 0.06 */
    double within_20;                /* fraction of kernels within ±20 % */
    int nvalidated;                  /* kernels it was fitted and measured on */
    int nheldout;                    /* kernels it was never fitted on, measured on this GPU */
    double heldout_median_abs_error; /* their median |modelled / measured time - 1| */
    /* the 90th percentile over them of |modelled speed-up / measured speed-up - 1|, speed-ups
     * over their exercise's baseline: the error band the grader holds a modelled verdict to */
    double speedup_error_p90;
} lab_model_gpu;

/* The time of each bound in ns (lab_model_bound), and the bound that weighs most. */
typedef struct lab_model_why {
    double ns[LAB_MODEL_BOUND_COUNT];
    lab_model_bound top;
} lab_model_why;

/* The defaults of model.def (an H100 before any fit). */
void lab_model_gpu_defaults(lab_model_gpu *gpu);
/* Reads an INI file: [gpu] name and any parameter by its model.def name, [validation]
 * median_abs_error, within_20, kernels, heldout_kernels, heldout_median_abs_error,
 * speedup_error_p90.  Unknown keys are an error ("file:line: ..."). */
int lab_model_gpu_load(const char *path, lab_model_gpu *gpu, lab_err *err);

/* The GPUs a folder of data files describes (kernels/gpus/NAME.ini): their NAMEs, sorted,
 * appended to out (the caller's).  A folder that cannot be read gives none. */
int lab_model_gpu_names(const char *dir, lab_strvec *out);
/* The data file dir/NAME.ini, loaded as lab_model_gpu_load does; LAB_EINVAL, with the names
 * there are, for a NAME that has none (or is not a name: letters, digits and '-'). */
int lab_model_gpu_find(const char *dir, const char *name, lab_model_gpu *gpu, lab_err *err);

/* Resident blocks per SM of block_threads threads, smem_block bytes of static shared memory and
 * regs_thread registers per thread (0: not limiting) on the GPU of params (model.def's order):
 * the occupancy calculator's rules, at least 1. */
double lab_model_blocks_per_sm(const double *params, double block_threads, double smem_block,
                               double regs_thread);

/* The modelled time of one launch in ns; *why (may be NULL) gets the bounds. */
double lab_model_time(const lab_model_gpu *gpu, const lab_model_counts *counts, lab_model_why *why);
/* The same on plain arrays in model.def's order (for the fit script, through ctypes); why_ns
 * (may be NULL) gets LAB_MODEL_BOUND_COUNT values. */
double lab_model_time_raw(const double *params, const double *counts, double *why_ns);

/* The counts at a timed size from those of two simulated sizes (small may be NULL), each
 * with its work (elements, or a matrix's elements).  A grid that grows with the work: every
 * count grows with it, from big.  A grid that stayed the same at both sizes (a grid-stride
 * loop, sized by the SMs of the GPU that ran it): each count is a part per launch, grown by
 * sm_ratio (the GPU's SMs over the simulator's), plus a part per element of work, the two
 * solved from the two sizes. */
void lab_model_scale(const lab_model_counts *small, double small_work, const lab_model_counts *big,
                     double big_work, double timed_work, double sm_ratio, lab_model_counts *out);

/* A grid-stride loop over one wave of resident blocks (a grid the driver sizes by the
 * occupancy), from one simulated launch (at, of work work_at, its blocks in at) and the part of
 * every count per unit of work (per_work: two sizes of a fixed grid give it): each count is a
 * part per block, (at - per_work x work_at) / at's blocks, times the GPU's wave (its blocks per
 * SM by lab_model_blocks_per_sm times its SMs, at most max_blocks: a size that needs fewer),
 * plus per_work x timed_work. */
void lab_model_scale_wave(const double *params, const lab_model_counts *at, double work_at,
                          const lab_model_counts *per_work, double timed_work, double max_blocks,
                          lab_model_counts *out);

#endif
