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

static double
at_most(double x, double ceiling)
{
    return x < ceiling ? x : ceiling;
}

double
lab_model_blocks_per_sm(const double *p, double block_threads, double smem_block,
                        double regs_thread)
{
    const double wpb = at_least(ceil(block_threads / 32), 1);
    /* the architecture table's rules (lab/build/occupancy.h): warps, the block limit, shared
     * memory in 128-byte units with the runtime's reserve, registers in 256 per warp */
    double n = at_most(floor(p[LAB_MODEL_P_MAX_WARPS_SM] / wpb), p[LAB_MODEL_P_MAX_BLOCKS_SM]);

    if (smem_block > 0)
        n = at_most(n, floor(p[LAB_MODEL_P_SMEM_SM] /
                             (ceil((smem_block + p[LAB_MODEL_P_SMEM_RESERVED]) / 128) * 128)));
    if (regs_thread > 0)
        n = at_most(n, floor(p[LAB_MODEL_P_REGS_SM] / (ceil(regs_thread * 32 / 256) * 256 * wpb)));
    return at_least(n, 1);
}

double
lab_model_time_raw(const double *p, const double *c, double *why_ns)
{
    double t[LAB_MODEL_BOUND_COUNT] = { 0 };
    const double sms = at_least(p[LAB_MODEL_P_SM_COUNT], 1);
    const double clock = at_least(p[LAB_MODEL_P_CLOCK_GHZ], 0.1); /* cycles per ns */
    const double blocks = at_least(c[LAB_MODEL_C_BLOCKS], 1);
    const double wpb = at_least(ceil(c[LAB_MODEL_C_BLOCK_THREADS] / 32), 1);
    const double per_sm = lab_model_blocks_per_sm(
        p, c[LAB_MODEL_C_BLOCK_THREADS], c[LAB_MODEL_C_SMEM_BLOCK], c[LAB_MODEL_C_REGS_THREAD]);
    /* the busiest SM's blocks: the time follows it, so the grid counts as that many SMs */
    const double busiest = ceil(blocks / sms);
    const double in_use = blocks / busiest;
    const double resident_warps = (busiest < per_sm ? busiest : per_sm) * wpb;
    /* where blocks turn over (more than one round of them per SM), a new block's warps start
     * one after another while its slots wait: a share of the time per warp of the block */
    const double rounds = busiest / per_sm;
    const double ramp = 1 + p[LAB_MODEL_P_RAMP] * (wpb - 1) * (rounds > 1 ? 1 - 1 / rounds : 0);
    const double loaded = 32 * c[LAB_MODEL_C_GLD_SECTORS];
    const double stored = 32 * c[LAB_MODEL_C_GST_SECTORS];
    const double ins = c[LAB_MODEL_C_IN_BYTES], all = ins + c[LAB_MODEL_C_OUT_BYTES];
    /* the L2 is flushed before a timed run: a block's loads read each sector it touches from
     * DRAM once (a re-read within the block is an L2 hit); re-reads across blocks hit where the
     * inputs fit in the L2, and else only those of a buffer small enough to stay there (a
     * lookup table every block reads): at most that buffer once per block after the first */
    const double fresh = 32 * c[LAB_MODEL_C_GLD_BLOCK_SECTORS];
    const double small = c[LAB_MODEL_C_IN_SMALL_BYTES];
    const double kept = small > 0 && small <= p[LAB_MODEL_P_L2_BYTES] ? small * (blocks - 1) : 0;
    const double reads = ins <= 0 || fresh <= ins         ? fresh
                         : ins <= p[LAB_MODEL_P_L2_BYTES] ? ins
                                                          : at_least(fresh - kept, ins);
    const double dram =
        reads + p[LAB_MODEL_P_WRITE_BACK] * (all > 0 && all < stored ? all : stored);
    const double l2 = loaded + stored;
    const double pnorm = at_least(p[LAB_MODEL_P_OVERLAP], 1);
    /* the simulator counts PTX; ptxas turns a short divergent branch into predicated code */
    /* nor does it issue one instruction for an integer division by a variable: a dozen more */
    const double issued = at_least(c[LAB_MODEL_C_WARP_INSTS] -
                                       p[LAB_MODEL_P_DIVERGENT_INSTS] * c[LAB_MODEL_C_DIVERGENT],
                                   c[LAB_MODEL_C_WARP_INSTS] / 4) +
                          (p[LAB_MODEL_P_DIV_INSTS] - 1) * c[LAB_MODEL_C_INT_DIVS];
    double sum = 0, top = 0, total;

    t[LAB_MODEL_BOUND_MEMORY] =
        dram / at_least(p[LAB_MODEL_P_DRAM_GBPS] * p[LAB_MODEL_P_DRAM_EFF], 1e-3);
    t[LAB_MODEL_BOUND_L2] = l2 / at_least(p[LAB_MODEL_P_L2_GBPS], 1e-3);
    t[LAB_MODEL_BOUND_L1] =
        (loaded + stored) / 32 / (in_use * at_least(p[LAB_MODEL_P_L1_SPC], 1e-3) * clock);
    t[LAB_MODEL_BOUND_ISSUE] = issued / (in_use * at_least(p[LAB_MODEL_P_IPC], 1e-3) * clock);
    t[LAB_MODEL_BOUND_SHARED] = c[LAB_MODEL_C_SHARED_WAVEFRONTS] /
                                (in_use * at_least(p[LAB_MODEL_P_SHARED_WPC], 1e-3) * clock);
    /* each warp waits a latency per round of loads; the SM's resident warps wait together.  (A
     * block-wide barrier's wait, the simulator's barrier_waits, is no term: fitted, it went to
     * nothing on the H100 and the H200, docs/bench/model.md) */
    t[LAB_MODEL_BOUND_LATENCY] =
        c[LAB_MODEL_C_GLD_ROUNDS] * p[LAB_MODEL_P_LATENCY_NS] / (in_use * resident_warps);
    t[LAB_MODEL_BOUND_ATOMICS] =
        c[LAB_MODEL_C_GATOM_SECTORS] * p[LAB_MODEL_P_ATOM_NS] +
        c[LAB_MODEL_C_SATOM_SERIAL] * p[LAB_MODEL_P_SATOM_CYCLES] / (in_use * clock);
    t[LAB_MODEL_BOUND_BLOCKS] = busiest * (p[LAB_MODEL_P_BLOCK_NS] + wpb * p[LAB_MODEL_P_WARP_NS]);
    t[LAB_MODEL_BOUND_LAUNCH] = (1 + c[LAB_MODEL_C_CHILD_GRIDS]) * p[LAB_MODEL_P_LAUNCH_NS];
    /* the resources the started warps share overlap as a p-norm; starting the blocks and their
     * warps is a pipeline of its own beside them: the SM runs no faster than it starts them */
    for (size_t b = 0; b < LAB_MODEL_BOUND_BLOCKS; b++)
        top = t[b] > top ? t[b] : top;
    for (size_t b = 0; top > 0 && b < LAB_MODEL_BOUND_BLOCKS; b++)
        sum += pow(t[b] / top, pnorm); /* each <= 1: no overflow for a large p */
    total = t[LAB_MODEL_BOUND_LAUNCH] +
            at_least(top * pow(sum, 1 / pnorm) * ramp, t[LAB_MODEL_BOUND_BLOCKS]);
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
    /* the smallest input: a table of its own size at both sizes stays so */
    if (small && small->c[LAB_MODEL_C_IN_SMALL_BYTES] == big->c[LAB_MODEL_C_IN_SMALL_BYTES])
        out->c[LAB_MODEL_C_IN_SMALL_BYTES] = big->c[LAB_MODEL_C_IN_SMALL_BYTES];
    /* what a block is, not what it does: never scaled */
    out->c[LAB_MODEL_C_BLOCK_THREADS] = big->c[LAB_MODEL_C_BLOCK_THREADS];
    out->c[LAB_MODEL_C_SMEM_BLOCK] = big->c[LAB_MODEL_C_SMEM_BLOCK];
    out->c[LAB_MODEL_C_REGS_THREAD] = big->c[LAB_MODEL_C_REGS_THREAD];
    if (fixed) {
        out->c[LAB_MODEL_C_BLOCKS] = blocks * sm_ratio;
        out->c[LAB_MODEL_C_WARPS] = big->c[LAB_MODEL_C_WARPS] * sm_ratio;
    }
}

void
lab_model_scale_wave(const double *params, const lab_model_counts *at, double work_at,
                     const lab_model_counts *per_work, double timed_work, double max_blocks,
                     lab_model_counts *out)
{
    const double blocks = at_least(at->c[LAB_MODEL_C_BLOCKS], 1);
    const double wave =
        params[LAB_MODEL_P_SM_COUNT] *
        lab_model_blocks_per_sm(params, at->c[LAB_MODEL_C_BLOCK_THREADS],
                                at->c[LAB_MODEL_C_SMEM_BLOCK], at->c[LAB_MODEL_C_REGS_THREAD]);
    const double grid = max_blocks > 0 ? at_most(wave, max_blocks) : wave;

    for (size_t i = 0; i < LAB_MODEL_C_COUNT; i++) {
        double per_block = at_least((at->c[i] - per_work->c[i] * work_at) / blocks, 0);
        out->c[i] = per_block * grid + per_work->c[i] * timed_work;
    }
    out->c[LAB_MODEL_C_BLOCKS] = grid;
    out->c[LAB_MODEL_C_WARPS] = at->c[LAB_MODEL_C_WARPS] / blocks * grid;
    out->c[LAB_MODEL_C_BLOCK_THREADS] = at->c[LAB_MODEL_C_BLOCK_THREADS];
    out->c[LAB_MODEL_C_SMEM_BLOCK] = at->c[LAB_MODEL_C_SMEM_BLOCK];
    out->c[LAB_MODEL_C_REGS_THREAD] = at->c[LAB_MODEL_C_REGS_THREAD];
    /* the buffers: a part per element and a fixed part (a table), none of it per block; the
     * inputs' fixed part is what may stay in the L2 */
    for (size_t i = LAB_MODEL_C_IN_BYTES; i <= LAB_MODEL_C_OUT_BYTES; i++)
        out->c[i] = at_least(at->c[i] - per_work->c[i] * work_at, 0) + per_work->c[i] * timed_work;
    out->c[LAB_MODEL_C_IN_SMALL_BYTES] =
        at_least(at->c[LAB_MODEL_C_IN_BYTES] - per_work->c[LAB_MODEL_C_IN_BYTES] * work_at, 0);
}
