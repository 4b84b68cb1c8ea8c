/*
 * model.c - the performance model's arithmetic (see model.h): bounds from counts, their
 * p-norm, the scaling of counts to a timed size.
 */
#include "lab/model/model.h"

#include <math.h>
#include <string.h>

const char *const lab_model_count_names[LAB_MODEL_C_COUNT] = {
#define LAB_MODEL_COUNT(ID, NAME, WHAT) [LAB_MODEL_C_##ID] = NAME,
#define LAB_MODEL_PARAM(ID, NAME, KIND, DEFAULT, WHAT)
#include "lab/model/model.def"
};

const char *const lab_model_param_names[LAB_MODEL_P_COUNT] = {
#define LAB_MODEL_COUNT(ID, NAME, WHAT)
#define LAB_MODEL_PARAM(ID, NAME, KIND, DEFAULT, WHAT) [LAB_MODEL_P_##ID] = NAME,
#include "lab/model/model.def"
};

const char *const lab_model_bound_names[LAB_MODEL_BOUND_COUNT] = {
    [LAB_MODEL_BOUND_MEMORY] = "memory",   [LAB_MODEL_BOUND_L2] = "L2",
    [LAB_MODEL_BOUND_ISSUE] = "issue",     [LAB_MODEL_BOUND_SHARED] = "shared memory",
    [LAB_MODEL_BOUND_LATENCY] = "latency", [LAB_MODEL_BOUND_ATOMICS] = "atomics",
    [LAB_MODEL_BOUND_BLOCKS] = "blocks",   [LAB_MODEL_BOUND_LAUNCH] = "launch",
};

static const double defaults[LAB_MODEL_P_COUNT] = {
#define LAB_MODEL_COUNT(ID, NAME, WHAT)
#define LAB_MODEL_PARAM(ID, NAME, KIND, DEFAULT, WHAT) [LAB_MODEL_P_##ID] = DEFAULT,
#include "lab/model/model.def"
};

void
lab_model_gpu_defaults(lab_model_gpu *gpu)
{
    memset(gpu, 0, sizeof(*gpu));
    strcpy(gpu->name, "H100");
    memcpy(gpu->p, defaults, sizeof(gpu->p));
}

static double
at_least(double x, double floor)
{
    return x > floor ? x : floor;
}

double
lab_model_time_raw(const double *p, const double *c, double *why_ns)
{
    double t[LAB_MODEL_BOUND_COUNT] = { 0 };
    const double sms = at_least(p[LAB_MODEL_P_SM_COUNT], 1);
    const double clock = at_least(p[LAB_MODEL_P_CLOCK_GHZ], 0.1); /* cycles per ns */
    const double blocks = at_least(c[LAB_MODEL_C_BLOCKS], 1);
    const double wpb = at_least(ceil(c[LAB_MODEL_C_BLOCK_THREADS] / 32), 1);
    /* resident blocks per SM by warps and by the block limit (registers and shared memory
     * are not counted: the course's kernels are limited by neither) */
    const double fit = at_least(floor(p[LAB_MODEL_P_MAX_WARPS_SM] / wpb), 1);
    const double per_sm = fit < p[LAB_MODEL_P_MAX_BLOCKS_SM] ? fit : p[LAB_MODEL_P_MAX_BLOCKS_SM];
    /* the busiest SM's blocks: the time follows it, so the grid counts as that many SMs */
    const double busiest = ceil(blocks / sms);
    const double in_use = blocks / busiest;
    const double resident_warps = (busiest < per_sm ? busiest : per_sm) * wpb;
    const double loaded = 32 * c[LAB_MODEL_C_GLD_SECTORS];
    const double stored = 32 * (c[LAB_MODEL_C_GST_SECTORS] + c[LAB_MODEL_C_GATOM_SECTORS]);
    const double ins = c[LAB_MODEL_C_IN_BYTES], all = ins + c[LAB_MODEL_C_OUT_BYTES];
    /* the L2 is flushed before a timed run: each input byte comes from DRAM at most once, a
     * re-read of the same sector is an L2 hit (the course's kernels reuse within a block) */
    const double dram = (ins > 0 && ins < loaded ? ins : loaded) +
                        p[LAB_MODEL_P_WRITE_BACK] * (all > 0 && all < stored ? all : stored);
    const double l2 = loaded + stored;
    const double requests = c[LAB_MODEL_C_GLD_REQUESTS] + c[LAB_MODEL_C_GATOM_REQUESTS];
    const double pnorm = at_least(p[LAB_MODEL_P_OVERLAP], 1);
    double sum = 0, total;

    t[LAB_MODEL_BOUND_MEMORY] =
        dram / at_least(p[LAB_MODEL_P_DRAM_GBPS] * p[LAB_MODEL_P_DRAM_EFF], 1e-3);
    t[LAB_MODEL_BOUND_L2] = l2 / at_least(p[LAB_MODEL_P_L2_GBPS], 1e-3);
    t[LAB_MODEL_BOUND_ISSUE] =
        c[LAB_MODEL_C_WARP_INSTS] / (in_use * at_least(p[LAB_MODEL_P_IPC], 1e-3) * clock);
    t[LAB_MODEL_BOUND_SHARED] = c[LAB_MODEL_C_SHARED_WAVEFRONTS] /
                                (in_use * at_least(p[LAB_MODEL_P_SHARED_WPC], 1e-3) * clock);
    t[LAB_MODEL_BOUND_LATENCY] = requests * p[LAB_MODEL_P_LATENCY_NS] /
                                 (in_use * resident_warps * at_least(p[LAB_MODEL_P_MLP], 1e-3));
    t[LAB_MODEL_BOUND_ATOMICS] =
        c[LAB_MODEL_C_GATOM_REQUESTS] * p[LAB_MODEL_P_ATOM_NS] +
        c[LAB_MODEL_C_SATOM_REQUESTS] * p[LAB_MODEL_P_SATOM_CYCLES] / (in_use * clock);
    t[LAB_MODEL_BOUND_BLOCKS] = busiest * p[LAB_MODEL_P_BLOCK_NS];
    t[LAB_MODEL_BOUND_LAUNCH] = (1 + c[LAB_MODEL_C_CHILD_GRIDS]) * p[LAB_MODEL_P_LAUNCH_NS];
    for (size_t b = 0; b < LAB_MODEL_BOUND_LAUNCH; b++)
        sum += pow(t[b] / 1000, pnorm); /* in µs: no overflow for large p */
    total = t[LAB_MODEL_BOUND_LAUNCH] + 1000 * pow(sum, 1 / pnorm);
    if (why_ns)
        memcpy(why_ns, t, sizeof(t));
    return total;
}

double
lab_model_time(const lab_model_gpu *gpu, const lab_model_counts *counts, lab_model_why *why)
{
    double ns[LAB_MODEL_BOUND_COUNT];
    double total = lab_model_time_raw(gpu->p, counts->c, ns);

    if (why) {
        memcpy(why->ns, ns, sizeof(ns));
        why->top = LAB_MODEL_BOUND_MEMORY;
        for (size_t b = 0; b < ARRAY_SIZE(ns); b++)
            if (ns[b] > ns[why->top])
                why->top = (lab_model_bound)b;
    }
    return total;
}

void
lab_model_scale(const lab_model_counts *simulated, double work, bool fixed_grid,
                lab_model_counts *out)
{
    for (size_t i = 0; i < LAB_MODEL_C_COUNT; i++)
        out->c[i] = simulated->c[i] * work;
    out->c[LAB_MODEL_C_BLOCK_THREADS] = simulated->c[LAB_MODEL_C_BLOCK_THREADS];
    if (fixed_grid) {
        out->c[LAB_MODEL_C_BLOCKS] = simulated->c[LAB_MODEL_C_BLOCKS];
        out->c[LAB_MODEL_C_WARPS] = simulated->c[LAB_MODEL_C_WARPS];
    }
    /* device-launched grids follow the work (one per parent block), like the blocks */
}
