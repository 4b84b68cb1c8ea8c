/*
 * model.c - the performance model's arithmetic (see model.h): bounds from counts, their
 * p-norm, the scaling of counts to a timed size.
 */
#include "lab/model/model.h"

#include <math.h>
#include <string.h>

const char *const lab_model_count_names[LAB_MODEL_C_COUNT] = {
#define LAB_MODEL_COUNT(ID, NAME, WHAT) [LAB_MODEL_C_##ID] = NAME,
#define LAB_MODEL_PARAM(ID, NAME, KIND, DEFAULT, MIN, MAX, WHAT)
#include "lab/model/model.def"
};

const char *const lab_model_param_names[LAB_MODEL_P_COUNT] = {
#define LAB_MODEL_COUNT(ID, NAME, WHAT)
#define LAB_MODEL_PARAM(ID, NAME, KIND, DEFAULT, MIN, MAX, WHAT) [LAB_MODEL_P_##ID] = NAME,
#include "lab/model/model.def"
};

const char *const lab_model_bound_names[LAB_MODEL_BOUND_COUNT] = {
    [LAB_MODEL_BOUND_MEMORY] = "memory",
    [LAB_MODEL_BOUND_L2] = "L2",
    [LAB_MODEL_BOUND_L1] = "L1",
    [LAB_MODEL_BOUND_ISSUE] = "issue",
    [LAB_MODEL_BOUND_SHARED] = "shared memory",
    [LAB_MODEL_BOUND_LATENCY] = "latency",
    [LAB_MODEL_BOUND_ATOMICS] = "atomics",
    [LAB_MODEL_BOUND_BLOCKS] = "blocks",
    [LAB_MODEL_BOUND_LAUNCH] = "launch",
};

static const double defaults[LAB_MODEL_P_COUNT] = {
#define LAB_MODEL_COUNT(ID, NAME, WHAT)
#define LAB_MODEL_PARAM(ID, NAME, KIND, DEFAULT, MIN, MAX, WHAT) [LAB_MODEL_P_##ID] = DEFAULT,
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
    const double stored = 32 * c[LAB_MODEL_C_GST_SECTORS];
    const double ins = c[LAB_MODEL_C_IN_BYTES], all = ins + c[LAB_MODEL_C_OUT_BYTES];
    /* the L2 is flushed before a timed run: a block's loads read each sector it touches from
     * DRAM once (a re-read within the block is an L2 hit), and re-reads across blocks hit only
     * where the inputs fit in the L2 */
    const double fresh = 32 * c[LAB_MODEL_C_GLD_BLOCK_SECTORS];
    const double reads = ins > 0 && ins <= p[LAB_MODEL_P_L2_BYTES] && ins < fresh ? ins : fresh;
    const double dram =
        reads + p[LAB_MODEL_P_WRITE_BACK] * (all > 0 && all < stored ? all : stored);
    const double l2 = loaded + stored;
    const double requests = c[LAB_MODEL_C_GLD_REQUESTS] + c[LAB_MODEL_C_GATOM_REQUESTS];
    const double pnorm = at_least(p[LAB_MODEL_P_OVERLAP], 1);
    /* the simulator counts PTX; ptxas turns a short divergent branch into predicated code */
    const double issued = at_least(c[LAB_MODEL_C_WARP_INSTS] -
                                       p[LAB_MODEL_P_DIVERGENT_INSTS] * c[LAB_MODEL_C_DIVERGENT],
                                   c[LAB_MODEL_C_WARP_INSTS] / 4);
    double sum = 0, top = 0, total;

    t[LAB_MODEL_BOUND_MEMORY] =
        dram / at_least(p[LAB_MODEL_P_DRAM_GBPS] * p[LAB_MODEL_P_DRAM_EFF], 1e-3);
    t[LAB_MODEL_BOUND_L2] = l2 / at_least(p[LAB_MODEL_P_L2_GBPS], 1e-3);
    t[LAB_MODEL_BOUND_L1] =
        (loaded + stored) / 32 / (in_use * at_least(p[LAB_MODEL_P_L1_SPC], 1e-3) * clock);
    t[LAB_MODEL_BOUND_ISSUE] = issued / (in_use * at_least(p[LAB_MODEL_P_IPC], 1e-3) * clock);
    t[LAB_MODEL_BOUND_SHARED] = c[LAB_MODEL_C_SHARED_WAVEFRONTS] /
                                (in_use * at_least(p[LAB_MODEL_P_SHARED_WPC], 1e-3) * clock);
    t[LAB_MODEL_BOUND_LATENCY] = requests * p[LAB_MODEL_P_LATENCY_NS] /
                                 (in_use * resident_warps * at_least(p[LAB_MODEL_P_MLP], 1e-3));
    t[LAB_MODEL_BOUND_ATOMICS] =
        c[LAB_MODEL_C_GATOM_SECTORS] * p[LAB_MODEL_P_ATOM_NS] +
        c[LAB_MODEL_C_SATOM_REQUESTS] * p[LAB_MODEL_P_SATOM_CYCLES] / (in_use * clock);
    t[LAB_MODEL_BOUND_BLOCKS] = busiest * p[LAB_MODEL_P_BLOCK_NS];
    t[LAB_MODEL_BOUND_LAUNCH] = (1 + c[LAB_MODEL_C_CHILD_GRIDS]) * p[LAB_MODEL_P_LAUNCH_NS];
    for (size_t b = 0; b < LAB_MODEL_BOUND_LAUNCH; b++)
        top = t[b] > top ? t[b] : top;
    for (size_t b = 0; top > 0 && b < LAB_MODEL_BOUND_LAUNCH; b++)
        sum += pow(t[b] / top, pnorm); /* each <= 1: no overflow for a large p */
    total = t[LAB_MODEL_BOUND_LAUNCH] + top * pow(sum, 1 / pnorm);
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
lab_model_scale(const lab_model_counts *small, double small_work, const lab_model_counts *big,
                double big_work, double timed_work, double sm_ratio, lab_model_counts *out)
{
    const double blocks = big->c[LAB_MODEL_C_BLOCKS];
    const bool fixed =
        small && blocks > 0 && small->c[LAB_MODEL_C_BLOCKS] == blocks && big_work > small_work;

    for (size_t i = 0; i < LAB_MODEL_C_COUNT; i++) {
        if (!fixed) { /* the grid grows with the work: every count with it */
            out->c[i] = big->c[i] * timed_work / big_work;
            continue;
        }
        /* a fixed grid (a grid-stride loop): a part per block, as many blocks as the GPU's SMs
         * give, and a part per element */
        double per_work = (big->c[i] - small->c[i]) / (big_work - small_work);
        double per_launch = big->c[i] - per_work * big_work;
        out->c[i] = per_launch * sm_ratio + per_work * timed_work;
        if (out->c[i] < 0)
            out->c[i] = 0;
    }
    out->c[LAB_MODEL_C_BLOCK_THREADS] = big->c[LAB_MODEL_C_BLOCK_THREADS];
    if (fixed) {
        out->c[LAB_MODEL_C_BLOCKS] = blocks * sm_ratio;
        out->c[LAB_MODEL_C_WARPS] = big->c[LAB_MODEL_C_WARPS] * sm_ratio;
    }
}
