/*
 * exec.h - one worker's state while it runs blocks (shared by exec.c,
 * checks.c, metrics.c and launch.c; never included outside lab/sim).
 *
 * launch.c makes one sim_launch per kernel launch and one sim_worker per
 * thread; a worker runs whole blocks with lab_sim__run_block: its warps in
 * turn, each until it exits or waits at a barrier, then the barrier opens.
 */
#ifndef LAB_SIM_EXEC_H
#define LAB_SIM_EXEC_H

#include "lab/sim/internal.h"
#include "lab/util/buf.h"

#include <stdatomic.h>

#define SIM_STACK_MAX 512

/* The GPU's default stack per thread (cudaLimitStackSize, 1 KiB), what calls may use of it: a
 * call costs SIM_FRAME_LINK bytes (the return address) and the callee's .local variables.  Its
 * parameters, return value and call sequences' .params travel in registers on the GPU, and the
 * registers ptxas saves are not counted, so the simulator should allow at least the GPU's depth.
 * The frames themselves (which hold all of those) get SIM_FRAME_ROOM times the stack per
 * thread. */
#define SIM_CALL_STACK 1024
#define SIM_FRAME_LINK 8
#define SIM_FRAME_ROOM 8

typedef struct sim_entry {
    int32_t pc, rpc;
    uint32_t mask;
} sim_entry;

/* A call in progress: the callee's reconvergence entries lie at stack[base] and above; when
 * they are all done, the call returns. */
typedef struct sim_frame {
    const sim_func *f;    /* the callee */
    const sim_insn *call; /* the caller's call */
    int base;             /* the warp's sp when it called */
    uint32_t mask;        /* the lanes that called */
    uint32_t local_base;  /* the callee's frame in each thread's local memory */
    uint32_t stack;       /* bytes of the GPU's stack the calls so far use (SIM_CALL_STACK) */
    size_t roff;          /* its registers in the warp's rstack */
} sim_frame;

typedef struct sim_warp {
    uint64_t *r;         /* the running function's nregs rows of 32 lanes */
    uint64_t *kregs;     /* the kernel's */
    const sim_func *f;   /* the running function: the kernel or the innermost callee */
    uint32_t local_base; /* the running function's frame in each thread's local memory */
    uint32_t local_top;  /* and its end */
    sim_frame *frames;   /* calls in progress, innermost last (malloc'd, kept between blocks) */
    uint32_t nframes;
    size_t framecap;
    uint64_t *rstack; /* the callees' registers (malloc'd, kept between blocks) */
    size_t rtop, rcap;
    sim_entry stack[SIM_STACK_MAX];
    int sp;
    uint32_t valid;  /* lanes that exist */
    uint32_t exited; /* lanes gone (and lanes that never existed) */
    bool at_barrier, done;
    const sim_insn *red; /* the bar.red it waits at: its d is written when the barrier opens */
    uint32_t red_mask;   /* the lanes that arrived there */
    uint32_t wsync;      /* warp-synchronisation epoch (checks) */
    /* locks built from atomics (checks.c): each lane's lock, an index in the worker's table + 1
     * (0: none); the lanes holding one, and those of them that fenced since they took it */
    uint8_t held[32];
    uint32_t holding, fenced;
    uint32_t index;
    /* the loads' latencies (metrics.gld_rounds), in rounds of one latency, in the kernel's own
     * frame: when each register's value is there, when the stretch of code since the last
     * branch or barrier began, the latest any instruction of it could issue, and the latest
     * value in flight */
    uint32_t *ready;
    uint32_t start, last, horizon;
    uint32_t tid[3][32];
} sim_warp;

/* One 4-byte word's history for the race checks: thread ids are + 1 (0: none).  A *_sync holds
 * the warp-synchronisation count in its low 24 bits and, in its top 8, the lock the access held
 * (an index in the worker's lock table + 1; 0: none), or in w_sync SIM_LOCK_WORD on the word a
 * lock is, from the barrier interval w_epoch on.  24 bytes a word: the shadows of a launch's
 * buffers are 6 times their size, and a larger one costs cache misses in every checked access. */
typedef struct sim_shadow {
    uint32_t w_tid, w_epoch, w_sync;
    uint32_t r_tid, r_epoch, r_sync;
} sim_shadow;

#define SIM_SYNC_BITS 0xffffffu /* a warp's sync count, as a shadow keeps it */
#define SIM_LOCK_WORD 0xffu

/* The lock an access held, from its *_sync */
static inline uint32_t
lab_sim__shadow_lock(uint32_t sync)
{
    return sync >> 24;
}

/* A lock of the block being run: a word that a lane took by atomicCAS (or atomicExch of 0) */
typedef struct sim_lock {
    uint64_t addr;   /* the word's host address */
    uint64_t free;   /* its value when free (what the taking cas found) */
    uint32_t holder; /* the thread holding it + 1; 0: free */
    bool bad;        /* not a lock, or given back with no fence: it orders nothing */
} sim_lock;

/* The bytes of an allocation's race shadow (lab_sim__zalloc'd on its first check) */
static inline size_t
lab_sim__shadow_bytes(const sim_alloc *a)
{
    return (a->size / 4 + 1) * sizeof(sim_shadow);
}

/* Dynamic parallelism (CUDA 12's CDP2).  A device-side launch is queued by the worker
 * that ran it and started after its parent grid has run to its end (launch.c), a legal
 * schedule since a CDP2 parent cannot wait for its children. */
#define SIM_MAX_DEPTH 24 /* nesting levels below the host's grid, as on the GPU */

typedef enum sim_stream {
    SIM_STREAM_NULL, /* the launching block's NULL stream: in launch order */
    SIM_STREAM_TAIL, /* cudaStreamTailLaunch: after the grid and all its other work */
    SIM_STREAM_FNF,  /* cudaStreamFireAndForget: on its own */
} sim_stream;

/* A grid launched from the device, waiting for its parent grid to complete. */
typedef struct sim_child {
    const sim_func *f;
    unsigned grid[3], block[3];
    uint32_t shared_dyn;
    uint8_t *params; /* malloc'd, f->param_bytes + 8 */
    sim_stream stream;
    uint64_t block_linear; /* the launching block; 0 for the host's grid */
    uint64_t seq;          /* launch order within the worker (a block runs on one worker) */
    uint32_t epoch;        /* the launching block's barrier interval at the launch (checks) */
    uint32_t launcher;     /* the launching thread's id in its block + 1; 0: the host */
} sim_child;

/* A parameter buffer from __cudaCDP2GetParameterBufferV2; its address is SIM_PBUF_TAG | index
 * << 16 in the block's table, until __cudaCDP2LaunchDeviceV2 takes it. */
typedef struct sim_pbuf {
    const sim_func *f;
    unsigned grid[3], block[3];
    uint32_t shared_dyn;
    uint8_t *bytes; /* NULL once launched */
} sim_pbuf;

/* What every grid of one host launch shares: the stop flag, the launch count, the printf text. */
typedef struct sim_root {
    atomic_int abort;
    atomic_ullong launches;  /* device-side launches so far */
    pthread_mutex_t lock;    /* printf_text, merged by grids that may run at once */
    lab_buf printf_text;     /* at most LAB_SIM_PRINTF_MAX bytes */
    uint64_t printf_dropped; /* bytes past it */
    atomic_ullong printed;   /* bytes printed so far, kept or not (LAB_SIM_PRINTF_FLOOD) */
    atomic_int printf_cut;   /* the launch stopped for them */
} sim_root;

/* The printf text of one block, in its worker's buffer. */
typedef struct sim_printf_seg {
    uint64_t block; /* linear */
    size_t start, end;
} sim_printf_seg;

struct sim_launch {
    lab_sim *sim;
    lab_sim_module *m;
    const sim_func *f;
    unsigned grid[3], block[3];
    uint32_t nthreads, nwarps;
    uint32_t shared_static, shared_dyn;
    uint8_t *params;
    uint64_t nblocks;
    atomic_ullong next_block;
    sim_root *root;
    unsigned depth;        /* 0: launched from the host */
    uint32_t launch_epoch; /* of the launching block (depth > 0; checks.c) */
    uint32_t launcher;     /* the launching thread + 1 */
    uint32_t local_stride; /* local memory per thread: the kernel's, and a call stack if needed */
    uint64_t gridid;       /* %gridid: the device's grids so far, this one included */
    bool checks;
};

/* The sectors one block loaded, or the shared addresses its atomics hit with a count each
 * (metrics.c): open addressing, an entry valid while its epoch is the block's, so a new block
 * starts empty without clearing. */
typedef struct sim_sectorset {
    uint64_t *keys;
    uint32_t *epochs;
    uint32_t *counts; /* counted: lanes per entry */
    size_t cap, n;    /* n: entries of epoch */
    uint32_t epoch;
    uint32_t worst; /* counted: the most lanes on one entry of epoch */
    bool counted;
    bool failed; /* out of memory: counting stopped */
} sim_sectorset;

struct sim_worker {
    sim_launch *L;
    sim_warp *warps;
    uint64_t *regs;
    uint32_t *ready; /* each warp's nregs (sim_warp.ready) */
    uint8_t *shared_static, *shared_dyn;
    sim_shadow *sh_static, *sh_dyn;
    uint8_t *shared_res; /* SIM_RESERVED_BYTES: %reserved_smem_offset_*, cg's scratch */
    sim_shadow *sh_res;
    uint8_t *local; /* local_bytes per thread */
    unsigned ctaid[3];
    bool tids_set; /* the warps' tid, the same in every block, computed by its first */
    uint64_t block_linear;
    uint32_t epoch;
    uint32_t block_epoch; /* the block's first barrier interval: shared words written before it
                             hold an earlier block's data (checks.c: uninitialised) */
    sim_lock *locks;      /* the block's locks (malloc'd, kept between blocks) */
    size_t nlocks, lockcap;
    uint32_t red_true, red_lanes; /* bar.red of this barrier interval: lanes with c, lanes */
    const sim_alloc *last_alloc;
    lab_sim_metrics metrics;
    sim_sectorset block_loads;  /* for metrics.gld_block_sectors */
    sim_sectorset shared_atoms; /* for metrics.shared_atom_serial */
    bool has_finding, finding_fatal, fatal;
    uint64_t finding_block;
    lab_sim_finding finding;
    uint64_t nfindings;
    int rc; /* <0: the simulator failed (unsupported), err filled */
    lab_err err;
    sim_pbuf *pbufs; /* of the block being run */
    size_t npbufs, pbufcap;
    sim_child *children; /* launched by this worker's blocks */
    size_t nchildren, childcap;
    lab_buf printf_text;         /* what its blocks printed, at most LAB_SIM_PRINTF_MAX bytes */
    sim_printf_seg *printf_segs; /* block by block, in the order run (increasing) */
    size_t nprintf_segs, printf_segcap;
    uint64_t printf_dropped; /* bytes past LAB_SIM_PRINTF_MAX */
};

/* Lane l's local memory: the frames of its calls, the kernel's first (launch.c sizes it) */
static inline uint8_t *
lab_sim__local(const sim_worker *wk, const sim_warp *w, int l)
{
    return wk->local + ((size_t)w->index * 32 + (size_t)l) * wk->L->local_stride;
}

int lab_sim__run_block(sim_worker *wk, uint64_t linear);
/* exec.c: lane l's bytes at a generic address, checked as its loads are (bounds, alignment);
 * NULL after a finding */
const uint8_t *lab_sim__lane_read(sim_worker *wk, const sim_warp *w, int l, const sim_insn *in,
                                  uint64_t addr, uint32_t bytes);
/* devlib.c: a call of a function the simulator runs itself (sim_builtin in in->sub) by the
 * lanes m, each on its own: the device runtime's launches, printf, assert */
int lab_sim__call(sim_worker *wk, sim_warp *w, const sim_insn *in, uint32_t m);
/* devlib.c: lane l's bytes of a call's .param operand o (in its frame), and their value */
uint8_t *lab_sim__arg(sim_worker *wk, const sim_warp *w, int l, const sim_opnd *o);
uint64_t lab_sim__arg64(sim_worker *wk, const sim_warp *w, int l, const sim_opnd *o);
uint32_t lab_sim__arg32(sim_worker *wk, const sim_warp *w, int l, const sim_opnd *o, unsigned k);
/* dynpar.c: __cudaCDP2GetParameterBufferV2 and __cudaCDP2LaunchDeviceV2 for lane l; out: what
 * the call returns */
int lab_sim__param_buffer(sim_worker *wk, const sim_warp *w, int l, const sim_insn *in,
                          uint64_t *out);
int lab_sim__launch_device(sim_worker *wk, const sim_warp *w, int l, const sim_insn *in,
                           uint64_t *out);
/* devlib.c: the worker's printf text moves to the host launch's, the lowest blocks first */
void lab_sim__printf_merge(sim_root *root, sim_worker *workers, unsigned n);
/* dynpar.c: lane l's access of a parameter buffer (SIM_PBUF_TAG), or NULL after a finding */
uint8_t *lab_sim__pbuf(sim_worker *wk, const sim_warp *w, int l, const sim_insn *in, uint64_t addr,
                       uint32_t bytes, bool write);
/* dynpar.c: frees the block's parameter buffers that were never launched */
void lab_sim__pbufs_reset(sim_worker *wk);
/* dynpar.c: stops the launch with a clear error (rc < 0 in wk), naming the instruction */
int lab_sim__launch_error(sim_worker *wk, const sim_insn *in, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* checks.c */
void lab_sim__finding(sim_worker *wk, const sim_warp *w, int lane, const sim_insn *in,
                      lab_sim_check kind, bool fatal, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
/* Stops the launch: the simulator cannot run in (why names the construct); LAB_ENOSYS in wk */
int lab_sim__unsupported(sim_worker *wk, const sim_insn *in, const char *why);
sim_shadow *lab_sim__global_shadow(sim_worker *wk, const sim_alloc *a, uint64_t addr);
void lab_sim__check_access(sim_worker *wk, const sim_warp *w, int lane, const sim_insn *in,
                           sim_shadow *sh, bool write, bool global);
/* A read of the shared word sh: one no thread of the block wrote is a finding (once a word) */
void lab_sim__check_uninit(sim_worker *wk, const sim_warp *w, int lane, const sim_insn *in,
                           sim_shadow *sh);

/* Records an access in a word's shadow (thread me + 1, barrier interval, warp-sync count, the
 * lock it holds). */
static inline void
lab_sim__shadow_note(sim_shadow *sh, uint32_t me, uint32_t epoch, uint32_t sync, uint32_t lock,
                     bool write)
{
    if (write) {
        sh->w_tid = me;
        sh->w_epoch = epoch;
        sh->w_sync = (sync & SIM_SYNC_BITS) | lock << 24;
    } else {
        sh->r_tid = me;
        sh->r_epoch = epoch;
        sh->r_sync = (sync & SIM_SYNC_BITS) | lock << 24;
    }
}

/* A shared word written by something other than a checked store (wmma, a bulk copy): it holds
 * this block's data now, for the uninitialised-memory check (it is no thread's write for the
 * race checks). */
static inline void
lab_sim__shadow_written(const sim_worker *wk, sim_shadow *sh)
{
    if (sh->w_epoch < wk->block_epoch) {
        sh->w_tid = 0;
        sh->w_epoch = wk->block_epoch;
        sh->w_sync &= SIM_SYNC_BITS;
    }
}

/* lab_sim__check_access, with the common case (nothing to report) inline: only an access that
 * may be a hazard goes to checks.c, which decides, reports and records it: another thread's
 * access in this barrier interval, a shared word read before this block wrote it, a word that
 * a lock guards or is, or a warp that holds a lock. */
static inline void
lab_sim__check(sim_worker *wk, const sim_warp *w, int lane, const sim_insn *in, sim_shadow *sh,
               bool write, bool global)
{
    uint32_t me = w->index * 32 + (uint32_t)lane + 1, epoch = wk->epoch;

    if ((sh->w_tid && sh->w_tid != me && sh->w_epoch == epoch) ||
        (write && sh->r_tid && sh->r_tid != me && sh->r_epoch == epoch) ||
        (global && wk->L->depth && sh->w_tid && sh->w_epoch == wk->L->launch_epoch) ||
        (!global && !write && sh->w_epoch < wk->block_epoch) || sh->w_sync > SIM_SYNC_BITS ||
        w->holding) {
        lab_sim__check_access(wk, w, lane, in, sh, write, global);
        return;
    }
    lab_sim__shadow_note(sh, me, epoch, w->wsync, 0, write);
}

/* checks.c: locks built from atomics.  Lane l's atom.cas or atom.exch on the word at p (host
 * pointer; sh its shadow, or NULL) found old there and left new: a lock taken (the word went
 * from its free value to another by the lane's cas, or from 0 by its exch) or given back (the
 * holder's cas or exch put the free value back). */
void lab_sim__lock_atomic(sim_worker *wk, sim_warp *w, int l, const uint8_t *p, sim_shadow *sh,
                          uint64_t old, uint64_t new_value, bool cas);
/* Lane l, which holds a lock, stores to the word at p: a release when p is its lock's word
 * (fenced since it took the lock, or the lock orders nothing from then on) */
void lab_sim__lock_store(sim_worker *wk, sim_warp *w, int l, const uint8_t *p);

/* metrics.c: one warp-level access; addr/bytes of the active lanes */
typedef enum sim_access { SIM_ACCESS_LOAD, SIM_ACCESS_STORE, SIM_ACCESS_ATOM } sim_access;
void lab_sim__count_global(lab_sim_metrics *mt, sim_access kind, const uint64_t *addr,
                           uint32_t mask, uint32_t bytes);
void lab_sim__count_shared(lab_sim_metrics *mt, const uint64_t *addr, uint32_t mask,
                           uint32_t bytes);
/* A warp-level shared atomic of the block numbered epoch (as for block loads): a request, and its
 * lanes added to its addresses' in the block, mt->shared_atom_serial growing with the busiest. */
void lab_sim__count_shared_atom(sim_sectorset *set, uint32_t epoch, lab_sim_metrics *mt,
                                const uint64_t *addr, uint32_t mask);
/* A warp-level global load of the block numbered epoch (its linear index + 1, unique in a
 * launch): its sectors new to the block counted in
 * mt->gld_block_sectors. */
void lab_sim__count_block_loads(sim_sectorset *set, uint32_t epoch, lab_sim_metrics *mt,
                                const uint64_t *addr, uint32_t mask, uint32_t bytes);
void lab_sim__sectorset_free(sim_sectorset *set);

#endif
