/*
 * occupancy.h - theoretical occupancy of a kernel on a GPU architecture, from
 * a table of per-architecture limits and the rules of NVIDIA's occupancy
 * calculator (cuda_occupancy.h, cudaOccMaxActiveBlocksPerMultiprocessor):
 *   warps:     floor(max warps per SM / ceil(block / 32))
 *   registers: regs per warp = roundup(regs * 32, 256); warps per SM =
 *              4 sub-partitions * floor(regs per SM / 4 / regs per warp)
 *   shared:    per block = roundup(static + dynamic + reserved, granularity);
 *              blocks = floor(shared per SM / per block)
 *   blocks:    the architecture's resident-block limit
 *   barriers:  sm_90 and newer, when the kernel uses named barriers
 * The default carveout is assumed (all of the SM's shared memory available).
 *
 * No allocation, no state: lab_occupancy_arch looks a row up, lab_occupancy_compute fills a result.
 */
#ifndef LAB_BUILD_OCCUPANCY_H
#define LAB_BUILD_OCCUPANCY_H

#include <stdbool.h>
#include <stddef.h>

#include "lab/util/err.h"

typedef struct lab_arch_limits {
    const char *arch;            /* "sm_90" */
    int major, minor;            /* compute capability */
    const char *example;         /* a GPU of that architecture */
    int max_threads_per_sm;      /* 2048 */
    int max_warps_per_sm;        /* 64 */
    int max_blocks_per_sm;       /* 32 */
    int max_threads_per_block;   /* 1024 */
    int regs_per_sm;             /* 65536 */
    int regs_per_block;          /* 65536 */
    int max_regs_per_thread;     /* 255: what ptxas may use */
    int reg_alloc_unit;          /* registers, allocated per warp */
    int sub_partitions;          /* register file split into this many parts */
    int smem_per_sm;             /* bytes with the default carveout */
    int smem_per_block;          /* bytes without opt-in */
    int smem_per_block_optin;    /* bytes with cudaFuncAttributeMaxDynamicSharedMemorySize */
    int smem_alloc_unit;         /* bytes */
    int smem_reserved_per_block; /* bytes the runtime keeps per block */
    int barriers_per_block_slot; /* named barriers per resident block slot (0: not limited) */
} lab_arch_limits;

typedef enum lab_occ_limit {
    LAB_OCC_LIMIT_WARPS,
    LAB_OCC_LIMIT_REGISTERS,
    LAB_OCC_LIMIT_SHARED,
    LAB_OCC_LIMIT_BLOCKS,
    LAB_OCC_LIMIT_BARRIERS,
    LAB_OCC_LIMIT_COUNT
} lab_occ_limit;

typedef struct lab_occ_input {
    int block_threads;   /* threads per block */
    int regs_per_thread; /* from ptxas */
    int static_smem;     /* bytes, from ptxas */
    int dynamic_smem;    /* bytes per launch */
    int barriers;        /* named barriers the kernel uses (ptxas "used N barriers") */
} lab_occ_input;

typedef struct lab_occ_result {
    int blocks_per_sm; /* active blocks per SM; 0: cannot launch */
    int warps_per_block;
    int active_warps;                      /* blocks_per_sm * warps_per_block */
    double occupancy;                      /* active_warps / max warps, 0..1 */
    int limit_blocks[LAB_OCC_LIMIT_COUNT]; /* blocks each resource allows (INT_MAX: no limit) */
    bool limited_by[LAB_OCC_LIMIT_COUNT];  /* the resources that set blocks_per_sm */
    int regs_per_block;                    /* allocated */
    int smem_per_block;                    /* allocated, reserved part included */
    const char *why;                       /* when blocks_per_sm is 0: which limit is exceeded */
} lab_occ_result;

extern const char *const lab_occ_limit_names[LAB_OCC_LIMIT_COUNT]; /* "warps", "registers", ... */

size_t lab_occupancy_arch_count(void);
const lab_arch_limits *lab_occupancy_arch_at(size_t i);
/* The row for "sm_90" (also "sm_90a", "9.0"), or NULL. */
const lab_arch_limits *lab_occupancy_arch(const char *arch);
/* LAB_EINVAL for a block size or register count no GPU accepts. */
int lab_occupancy_compute(const lab_arch_limits *a, const lab_occ_input *in, lab_occ_result *out,
                          lab_err *err);

#endif
