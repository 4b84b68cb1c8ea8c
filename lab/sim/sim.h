/*
 * sim.h - the PTX SIMT simulator: runs the PTX nvcc emits for a kernel on
 * the CPU, warps of 32 lanes in lockstep with an immediate-post-dominator
 * reconvergence stack (docs/design/simulator.md).
 *
 * Call order:
 *   lab_sim_new(&sim)                          a device: global memory, options
 *   lab_sim_alloc / lab_sim_copy_in            device addresses are plain uint64_t
 *   lab_sim_load(sim, ptx, len, path, &mod)    parse, build the CFG, lay out symbols
 *   lab_sim_launch(mod, kernel, grid, block, shared, args, &res)
 *   lab_sim_copy_out ...
 *   lab_sim_module_free(mod); lab_sim_free(sim)    (modules before their device)
 *
 * A launch runs every block (on lab_sim_set_threads workers, default: the
 * CPUs) and fills a lab_sim_result: the PTX-level metrics, summed over the
 * whole grid, and the first finding of the checks.  Grids the kernel launches
 * from the device (dynamic parallelism, CUDA 12's CDP2) run after their
 * parent grid, each complete with its own children before the launch returns;
 * their metrics and findings are the launch's too.  A fault (an access out of
 * bounds, a deadlock) stops the launch: result.fatal is set, the launch still
 * returns 0.  Only a failure of the simulator itself returns <0: LAB_ENOSYS
 * (from lab_sim_load too) when the kernel uses a construct the simulator does
 * not run, err saying "the simulator does not support WHAT at file.cu:37;
 * grade it on a GPU" (the PTX line where there is no .loc; never a path),
 * which is no fault of the kernel; other codes for bad arguments, out of
 * memory, a device-side launch it cannot make.  The library never prints and
 * never exits.
 */
#ifndef LAB_SIM_SIM_H
#define LAB_SIM_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lab/util/err.h"
#include "lab/util/fmtargs.h"

typedef struct lab_sim lab_sim;
typedef struct lab_sim_module lab_sim_module;

/* Counted per executed warp instruction; "PTX-level": ptxas may restructure code.
 * Only uint64_t members: summed member by member (common/dev-sim.c). */
typedef struct lab_sim_metrics {
    uint64_t warps;                                /* launched */
    uint64_t warp_insts;                           /* executed warp instructions */
    uint64_t thread_insts;                         /* sum of active lanes over them */
    uint64_t branches;                             /* executed warp-level bra */
    uint64_t divergent;                            /* of which split the warp */
    uint64_t gld_requests, gld_sectors, gld_bytes; /* global loads (ld, ldu; not atomics) */
    uint64_t gst_requests, gst_sectors, gst_bytes; /* global stores */
    uint64_t shared_requests;                      /* shared loads and stores (not atomics) */
    uint64_t shared_wavefronts;                    /* ideal = requests; more = bank conflicts */
    uint64_t shared_conflicts;                     /* wavefronts - requests */
    /* atom/red: Nsight Compute counts them apart from loads and stores (op_atom, op_red) */
    uint64_t gatom_requests, gatom_sectors; /* global atomics */
    uint64_t shared_atom_requests;          /* shared atomics (a CAS loop in SASS for floats) */
    /* the shared atomics' lanes served one after another: per block, the most lanes on one
     * address, whichever warp they are in (a block of 1024 threads adding into one word: 1024;
     * one lane per warp into it: 32), summed over the blocks */
    uint64_t shared_atom_serial;
    uint64_t child_grids; /* grids launched from the device (dynamic parallelism), included */
    /* distinct sectors each block loaded, summed over the blocks: what the loads would read
     * from DRAM if the L2 kept a block's data for the block alone (the performance model) */
    uint64_t gld_block_sectors;
    /* the global loads' latencies on each warp's longest path, summed over the warps: within a
     * stretch of code without a branch or barrier a load waits only for the loads its address
     * needs (as ptxas schedules it: loads early, uses late); a branch or barrier waits for all
     * that the stretch used.  A chain of n dependent loads is n; n independent loads and their
     * sum, 1; a loop with one load per iteration that it uses, one per iteration */
    uint64_t gld_rounds;
    /* integer divisions and remainders by a value not known at compile time: one PTX
     * instruction, a dozen or more in SASS (a reciprocal and its corrections) */
    uint64_t int_divs;
    /* block-wide barriers (bar.sync) times the warps each one held: a block waits at every one
     * for its slowest warp, and the wait is on all its warps' paths */
    uint64_t barrier_waits;
} lab_sim_metrics;

typedef enum lab_sim_check {
    LAB_SIM_CHECK_NONE,
    LAB_SIM_CHECK_OOB_GLOBAL,
    LAB_SIM_CHECK_OOB_SHARED,
    LAB_SIM_CHECK_OOB_LOCAL,
    LAB_SIM_CHECK_RACE_SHARED,
    LAB_SIM_CHECK_RACE_GLOBAL,
    LAB_SIM_CHECK_WARP_HAZARD,
    LAB_SIM_CHECK_DIVERGENT_BARRIER,
    LAB_SIM_CHECK_SYNC_MASK,
    LAB_SIM_CHECK_DEADLOCK,
    LAB_SIM_CHECK_MISALIGNED,
    LAB_SIM_CHECK_STACK_OVERFLOW, /* a call past the thread's stack (SIM_CALL_STACK) */
    LAB_SIM_CHECK_BAD_CALL,       /* a call through an address that is no device function */
    LAB_SIM_CHECK_ASSERT,         /* assert() failed: msg is the GPU's message */
    LAB_SIM_CHECK_BAD_FREE,       /* free() of what malloc did not return, or twice */
    LAB_SIM_CHECK_TRAP,           /* the kernel called __trap() */
    LAB_SIM_CHECK_UNINIT_SHARED,  /* a read of shared memory no thread of the block wrote */
    /* two threads wrote one word with nothing ordering them and nobody read it between: each
     * thread stores once, so two threads computed the same index (not a missing barrier) */
    LAB_SIM_CHECK_DUPLICATE_WRITE,
    LAB_SIM_CHECK_COUNT
} lab_sim_check;

typedef struct lab_sim_finding {
    lab_sim_check kind;
    unsigned block[3], thread[3];
    char where[256]; /* "file.cu:37" (+ " (inlined at file.cu:12)") or "PTX line 51" */
    char msg[512];   /* one line: what, who, where */
    /* what happened (msg's middle part) as a message of the lab's catalog and its arguments, so
     * that the lab can show the finding in the learner's language (lab/util/fmtargs.h); NULL
     * where msg is the GPU's own words (a failed assert) or the format could not be kept */
    const char *what_format;
    lab_fmtargs what_args;
} lab_sim_finding;

typedef struct lab_sim_result {
    lab_sim_metrics metrics;
    bool fatal;            /* the launch stopped at first.kind */
    bool printf_cut;       /* the launch stopped past LAB_SIM_PRINTF_FLOOD bytes of printf */
    uint64_t printf_bytes; /* what its printf wrote, kept or not (the lines as they are kept) */
    lab_sim_finding first; /* kind NONE when the checks found nothing */
    uint64_t nfindings;    /* all findings (the same hazard counts once per access) */
} lab_sim_result;

int lab_sim_new(lab_sim **out, lab_err *err);
void lab_sim_free(lab_sim *s);
/* Worker threads for launches (0: the online CPUs); checks on by default. */
void lab_sim_set_threads(lab_sim *s, unsigned n);
void lab_sim_set_checks(lab_sim *s, bool on);
/* The GPU the simulator stands for, as a kernel sees it in its special registers: %nsmid (SMs),
 * %nwarpid (warp slots per SM); %smid and %warpid spread blocks and warps over them as a GPU
 * could (block b on SM b % sms).  Default: LAB_SIM_GPU_H100, the H100 SXM's. */
typedef struct lab_sim_gpu {
    unsigned sms;          /* 132 */
    unsigned warps_per_sm; /* 64: lab/build/occupancy.c's max_warps_per_sm of sm_90 */
} lab_sim_gpu;
#define LAB_SIM_GPU_H100                                                                           \
    {                                                                                              \
        132, 64                                                                                    \
    }
void lab_sim_set_gpu(lab_sim *s, lab_sim_gpu gpu);
/* At most n device-side launches per host launch (default 2^20): a guard against runaway
 * recursion, not the GPU's pending-launch count (here children wait for their parent). */
void lab_sim_set_max_launches(lab_sim *s, uint64_t n);

int lab_sim_alloc(lab_sim *s, size_t bytes, uint64_t *out, lab_err *err);
int lab_sim_copy_in(lab_sim *s, uint64_t dst, const void *src, size_t bytes, lab_err *err);
int lab_sim_copy_out(lab_sim *s, void *dst, uint64_t src, size_t bytes, lab_err *err);
int lab_sim_copy_dtod(lab_sim *s, uint64_t dst, uint64_t src, size_t bytes, lab_err *err);
/* count 32-bit words at dst set to value (cuMemsetD32). */
int lab_sim_fill32(lab_sim *s, uint64_t dst, uint32_t value, size_t count, lab_err *err);

/* A texture object (cudaCreateTextureObject's resource and texture descriptors, in what the
 * simulator reads of them): the texels lie in device memory from base, row after row (pitch bytes
 * apart) and slice after slice, each channels of bits, of kind 'f' (float), 'u' or 's'.  A layered
 * texture (tex1DLayered, tex2DLayered; a cube map: six layers, +x -x +y -y +z -z) has its layers as
 * its last dimension (dims one more, height or depth the layers).  A surface object is one too. */
typedef enum lab_sim_tex_address {
    LAB_SIM_TEX_WRAP,
    LAB_SIM_TEX_CLAMP,
    LAB_SIM_TEX_MIRROR,
    LAB_SIM_TEX_BORDER
} lab_sim_tex_address;
typedef struct lab_sim_texture {
    uint64_t base;
    unsigned dims;                 /* 1, 2 or 3 */
    unsigned width, height, depth; /* texels (1 past dims) */
    uint64_t pitch;                /* bytes from row to row; 0: width texels */
    unsigned channels, bits;       /* 1, 2 or 4 of 8, 16 or 32 bits */
    char kind;                     /* 'f', 'u' or 's' */
    bool normalized_read; /* cudaReadModeNormalizedFloat: 8 and 16-bit integers to [0, 1] or [-1, 1]
                           */
    bool normalized_coords;         /* coordinates in [0, 1) */
    bool linear;                    /* cudaFilterModeLinear (float coordinates, float results) */
    lab_sim_tex_address address[3]; /* per dimension */
} lab_sim_texture;
#define LAB_SIM_MAX_TEXTURES 64
/* *handle: what a kernel's cudaTextureObject_t holds (never 0); LAB_SIM_MAX_TEXTURES on s. */
int lab_sim_texture_create(lab_sim *s, const lab_sim_texture *t, uint64_t *handle, lab_err *err);

/* text need not be NUL-terminated; path is for messages. */
int lab_sim_load(lab_sim *s, const char *text, size_t len, const char *path, lab_sim_module **out,
                 lab_err *err);
void lab_sim_module_free(lab_sim_module *m);
bool lab_sim_has_kernel(const lab_sim_module *m, const char *name);
/* The names of the module's entries, one per call: i = 0, 1, ... until NULL. */
const char *lab_sim_kernel_name(const lab_sim_module *m, size_t i);
/* A module-scope __device__ variable's address and size. */
int lab_sim_symbol(lab_sim_module *m, const char *name, uint64_t *out, size_t *bytes, lab_err *err);

/* args[i] points at the i-th parameter's value, as cuLaunchKernel's kernelParams. */
int lab_sim_launch(lab_sim_module *m, const char *kernel, const unsigned grid[3],
                   const unsigned block[3], unsigned shared_bytes, void **args, lab_sim_result *out,
                   lab_err *err);

/* Bytes of the device heap that malloc in a kernel takes from (cudaLimitMallocHeapSize's
 * default); malloc returns NULL past it, as on the GPU. */
#define LAB_SIM_HEAP_BYTES (8u << 20)

/* What the kernel's printf wrote in the last launch on s: each line its thread's, as
 * "block [x,y,z], thread [x,y,z]: text\n", the lowest blocks first (a block's lines in the
 * order its threads printed them; grids launched from the device after their parent's), whole
 * lines of at most LAB_SIM_PRINTF_MAX bytes in all; "" if nothing.  *dropped (unless NULL):
 * the bytes printed past them, not kept.  Valid until the next launch on s. */
#define LAB_SIM_PRINTF_MAX 4096
/* Bytes of printf output (kept or not) past which a launch is stopped: a printf in every thread
 * of a large grid (a debugging line left in) would print hundreds of MB, and the GPU's own
 * printf buffer holds 1 MiB; result.printf_cut says so.  A few thousand lines of a small case
 * stay far below it. */
#define LAB_SIM_PRINTF_FLOOD (1u << 20)
const char *lab_sim_printf_text(const lab_sim *s, uint64_t *dropped);

/* Per conditional branch (a predicated bra of the PTX), the warps that executed it and the warps
 * it split, summed over every launch of a module since it was loaded: counted only in modules
 * loaded while this is on (default off: the counting costs an atomic add per branch). */
void lab_sim_set_branch_counts(lab_sim *s, bool on);
typedef struct lab_sim_branch {
    uint32_t ptx_line;
    char where[256]; /* "file.cu:37" (+ " (inlined at file.cu:12)") or "PTX line 51" */
    uint64_t warps, divergent;
} lab_sim_branch;
/* Calls fn for each conditional branch of m's functions that some warp executed, in PTX order
 * (none when m does not count them); stops at fn's first nonzero return and returns it. */
int lab_sim_branches(const lab_sim_module *m, int (*fn)(const lab_sim_branch *b, void *arg),
                     void *arg);

/* Name of a check ("out-of-bounds global access"), from a table. */
const char *lab_sim_check_name(lab_sim_check c);
/* Derived metrics, NaN-free (0 when nothing was counted). */
double lab_sim_metric_ratio(uint64_t num, uint64_t den);

#endif
