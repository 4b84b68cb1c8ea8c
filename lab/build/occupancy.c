/*
 * occupancy.c - the architecture table and the occupancy rules (see occupancy.h).
 *
 * Limits: CUDA C++ Programming Guide, "Compute Capabilities" table, and the
 * per-architecture constants of cuda_occupancy.h (CUDA 13.0): register and
 * shared-memory allocation granularity, resident blocks per SM, reserved shared
 * memory, sub-partitions, barriers.  tests/test-occupancy.c checks the rules
 * against cuda_occupancy.h itself, and tests/gpu checks the table against the
 * occupancy API on a real GPU.
 */
#include "lab/build/occupancy.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#define KIB 1024

/* clang-format off */
static const lab_arch_limits arches[] = {
    /* arch     cc      example          thr/SM warps blk thr/blk regs/SM regs/blk maxr unit sub smem/SM    smem/blk  opt-in     gran res   bar */
    { "sm_75",  7, 5,  "Tesla T4",        1024, 32, 16, 1024, 65536, 65536, 255, 256, 4,  64 * KIB, 48 * KIB,  64 * KIB, 256,  0,    0 },
    { "sm_80",  8, 0,  "A100",            2048, 64, 32, 1024, 65536, 65536, 255, 256, 4, 164 * KIB, 48 * KIB, 163 * KIB, 128, KIB,  0 },
    { "sm_86",  8, 6,  "RTX 3090, A40",   1536, 48, 16, 1024, 65536, 65536, 255, 256, 4, 100 * KIB, 48 * KIB,  99 * KIB, 128, KIB,  0 },
    { "sm_89",  8, 9,  "RTX 4090, L4",    1536, 48, 24, 1024, 65536, 65536, 255, 256, 4, 100 * KIB, 48 * KIB,  99 * KIB, 128, KIB,  0 },
    { "sm_90",  9, 0,  "H100, H200",      2048, 64, 32, 1024, 65536, 65536, 255, 256, 4, 228 * KIB, 48 * KIB, 227 * KIB, 128, KIB,  2 },
    { "sm_100", 10, 0, "B200",            2048, 64, 32, 1024, 65536, 65536, 255, 256, 4, 228 * KIB, 48 * KIB, 227 * KIB, 128, KIB,  2 },
    { "sm_120", 12, 0, "RTX 5090",        1536, 48, 24, 1024, 65536, 65536, 255, 256, 4, 100 * KIB, 48 * KIB,  99 * KIB, 128, KIB,  1 },
};
/* clang-format on */

const char *const lab_occ_limit_names[LAB_OCC_LIMIT_COUNT] = {
    [LAB_OCC_LIMIT_WARPS] = "warps",          [LAB_OCC_LIMIT_REGISTERS] = "registers",
    [LAB_OCC_LIMIT_SHARED] = "shared memory", [LAB_OCC_LIMIT_BLOCKS] = "blocks per SM",
    [LAB_OCC_LIMIT_BARRIERS] = "barriers",
};

size_t
lab_occupancy_arch_count(void)
{
    return ARRAY_SIZE(arches);
}

const lab_arch_limits *
lab_occupancy_arch_at(size_t i)
{
    return i < ARRAY_SIZE(arches) ? &arches[i] : NULL;
}

const lab_arch_limits *
lab_occupancy_arch(const char *arch)
{
    char name[16];
    int major, minor, n = 0;

    if (!arch)
        return NULL;
    /* "9.0" names the same row as "sm_90"; "sm_90a" runs sm_90's limits */
    if (sscanf(arch, "%d.%d%n", &major, &minor, &n) == 2 && !arch[n])
        snprintf(name, sizeof(name), "sm_%d%d", major, minor);
    else
        snprintf(name, sizeof(name), "%.*s", (int)strcspn(arch, "af"), arch);
    for (size_t i = 0; i < ARRAY_SIZE(arches); i++)
        if (!strcmp(arches[i].arch, name))
            return &arches[i];
    return NULL;
}

static int
div_up(int x, int y)
{
    return (x + y - 1) / y;
}

static int
round_up(int x, int y)
{
    return div_up(x, y) * y;
}

static int
regs_limit(const lab_arch_limits *a, const lab_occ_input *in, int warps, lab_occ_result *out)
{
    int per_warp = round_up(in->regs_per_thread * 32, a->reg_alloc_unit);
    /* the hardware checks a block as if its warps filled every sub-partition */
    int assumed = per_warp * round_up(warps, a->sub_partitions);

    out->regs_per_block = per_warp * warps;
    if (a->regs_per_block < assumed || a->regs_per_block < out->regs_per_block)
        return 0;
    if (per_warp == 0)
        return INT_MAX;
    return (a->regs_per_sm / a->sub_partitions / per_warp) * a->sub_partitions / warps;
}

static int
smem_limit(const lab_arch_limits *a, const lab_occ_input *in, lab_occ_result *out)
{
    int total = in->static_smem + in->dynamic_smem + a->smem_reserved_per_block;

    out->smem_per_block = round_up(total, a->smem_alloc_unit);
    if (out->smem_per_block > a->smem_per_block_optin + a->smem_reserved_per_block)
        return 0;
    return out->smem_per_block ? a->smem_per_sm / out->smem_per_block : INT_MAX;
}

int
lab_occupancy_compute(const lab_arch_limits *a, const lab_occ_input *in, lab_occ_result *out,
                      lab_err *err)
{
    int *lim = out->limit_blocks, best = INT_MAX;

    memset(out, 0, sizeof(*out));
    if (in->block_threads <= 0 || in->regs_per_thread < 0 || in->static_smem < 0 ||
        in->dynamic_smem < 0 || in->barriers < 0)
        return lab_err_set(err, LAB_EINVAL, "occupancy needs a positive block size and counts");
    out->warps_per_block = div_up(in->block_threads, 32);
    lim[LAB_OCC_LIMIT_WARPS] = in->block_threads > a->max_threads_per_block
                                   ? 0
                                   : a->max_warps_per_sm / out->warps_per_block;
    lim[LAB_OCC_LIMIT_REGISTERS] = in->regs_per_thread > a->max_regs_per_thread
                                       ? 0
                                       : regs_limit(a, in, out->warps_per_block, out);
    lim[LAB_OCC_LIMIT_SHARED] = smem_limit(a, in, out);
    lim[LAB_OCC_LIMIT_BLOCKS] = a->max_blocks_per_sm;
    lim[LAB_OCC_LIMIT_BARRIERS] =
        a->barriers_per_block_slot && in->barriers
            ? a->max_blocks_per_sm * a->barriers_per_block_slot / in->barriers
            : INT_MAX;
    for (int i = 0; i < LAB_OCC_LIMIT_COUNT; i++)
        if (lim[i] < best)
            best = lim[i];
    for (int i = 0; i < LAB_OCC_LIMIT_COUNT; i++)
        out->limited_by[i] = lim[i] == best;
    out->blocks_per_sm = best;
    out->active_warps = best * out->warps_per_block;
    out->occupancy = (double)out->active_warps / a->max_warps_per_sm;
    if (best == 0) {
        if (!lim[LAB_OCC_LIMIT_WARPS])
            out->why = "the block has more threads than a block may have";
        else if (!lim[LAB_OCC_LIMIT_REGISTERS])
            out->why = "the block needs more registers than a block may have";
        else
            out->why = "the block needs more shared memory than a block may have";
    }
    return 0;
}
