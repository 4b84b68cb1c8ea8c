/*
 * checks.c - what the simulator catches and how it says so: out-of-bounds
 * accesses (exec.c finds them), data races and warp-synchronous hazards from
 * per-word shadow state, and the one-line findings naming thread, block and
 * source line (docs/design/simulator.md, "The checks").
 *
 * Shadow of a 4-byte word: who last wrote it and who last read it (thread id
 * + 1 within the block), in which barrier interval (a launch-wide unique
 * epoch, bumped at block start and at every opened barrier) and at which
 * warp-synchronisation count of the warp (bumped by bar.warp.sync and the
 * *.sync warp operations).  An access by another thread in the same epoch is
 * a race when the other thread is in another warp, and a warp-synchronous
 * hazard when it is in the same warp with no warp-level sync in between
 * (volatile orders nothing between lanes).  In a grid launched from the
 * device, an access of a word that another thread of the launching block
 * wrote in the barrier interval of the launch is a race too (CUDA's
 * dynamic-parallelism memory model).  Atomics are not tracked.
 */
#include "lab/sim/exec.h"
#include "lab/util/i18n.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Each check's name, and whether its finding's message is the GPU's own words (assert) rather
 * than "name: what, thread ... of block ... at where".  The names are messages of the lab's
 * catalog: the report carries them in English (the case's "check"), the lab shows them
 * translated; the simulator itself never calls gettext. */
static const struct {
    const char *name;
    bool verbatim;
} checks[] = {
    [LAB_SIM_CHECK_NONE] = { "none", false },
    [LAB_SIM_CHECK_OOB_GLOBAL] = { N_("out-of-bounds global access"), false },
    [LAB_SIM_CHECK_OOB_SHARED] = { N_("out-of-bounds shared access"), false },
    [LAB_SIM_CHECK_OOB_LOCAL] = { N_("out-of-bounds local access"), false },
    [LAB_SIM_CHECK_RACE_SHARED] = { N_("shared-memory race"), false },
    [LAB_SIM_CHECK_RACE_GLOBAL] = { N_("global-memory race"), false },
    [LAB_SIM_CHECK_WARP_HAZARD] = { N_("warp-synchronous hazard"), false },
    [LAB_SIM_CHECK_DIVERGENT_BARRIER] = { N_("barrier in divergent code"), false },
    [LAB_SIM_CHECK_SYNC_MASK] = { N_("bad warp-sync mask"), false },
    [LAB_SIM_CHECK_DEADLOCK] = { N_("deadlock"), false },
    [LAB_SIM_CHECK_MISALIGNED] = { N_("misaligned access"), false },
    [LAB_SIM_CHECK_STACK_OVERFLOW] = { N_("call stack overflow"), false },
    [LAB_SIM_CHECK_BAD_CALL] = { N_("call of an invalid function pointer"), false },
    [LAB_SIM_CHECK_ASSERT] = { N_("assertion failed"), true },
    [LAB_SIM_CHECK_BAD_FREE] = { N_("invalid free"), false },
    [LAB_SIM_CHECK_TRAP] = { N_("__trap() called"), false },
    [LAB_SIM_CHECK_DUPLICATE_WRITE] = { N_("duplicate index"), false },
    [LAB_SIM_CHECK_UNINIT_SHARED] = { N_("uninitialised shared memory"), false },
};
_Static_assert(ARRAY_SIZE(checks) == LAB_SIM_CHECK_COUNT, "one row per check");

const char *
lab_sim_check_name(lab_sim_check c)
{
    return (unsigned)c < LAB_SIM_CHECK_COUNT ? checks[c].name : "?";
}

double
lab_sim_metric_ratio(uint64_t num, uint64_t den)
{
    return den ? (double)num / (double)den : 0.0;
}

static const char *
base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

void
lab_sim__where(const lab_sim_module *m, const sim_insn *in, char *buf, size_t len)
{
    const char *file = in->file < ARRAY_SIZE(m->files) ? m->files[in->file] : NULL;
    const char *ifile = in->inl_file < ARRAY_SIZE(m->files) ? m->files[in->inl_file] : NULL;
    int n;

    if (file && in->line) {
        n = snprintf(buf, len, "%s:%u", base_name(file), in->line);
        if (ifile && in->inl_line && n >= 0 && (size_t)n < len)
            snprintf(buf + n, len - (size_t)n, " (inlined at %s:%u)", base_name(ifile),
                     in->inl_line);
    } else {
        snprintf(buf, len, "PTX line %u", in->ptx_line);
    }
}

int
lab_sim__unsupported_err(const lab_sim_module *m, const sim_insn *in, lab_err *err, const char *fmt,
                         ...)
{
    char what[320], where[256];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    lab_sim__where(m, in, where, sizeof(where));
    return lab_err_set(err, LAB_ENOSYS,
                       "the simulator does not support %s at %s; grade it on a GPU", what, where);
}

int
lab_sim__unsupported(sim_worker *wk, const sim_insn *in, const char *why)
{
    if (wk->rc == 0)
        wk->rc = lab_sim__unsupported_err(wk->L->m, in, &wk->err, "%s: '%s'", why, in->text);
    atomic_store(&wk->L->root->abort, 1);
    return -1;
}

void
lab_sim__finding(sim_worker *wk, const sim_warp *w, int lane, const sim_insn *in,
                 lab_sim_check kind, bool fatal, const char *fmt, ...)
{
    lab_sim_finding *f = &wk->finding;
    char what[512];
    va_list ap;

    wk->nfindings++;
    if (fatal) {
        wk->fatal = true;
        atomic_store(&wk->L->root->abort, 1);
    }
    /* keep the first finding of the lowest block; a fatal one wins; an uninitialised read
     * gives way to a race in its block, which is often why the word was not written yet (a
     * missing __syncthreads()) */
    if (wk->has_finding && !(fatal && !wk->finding_fatal) &&
        !(wk->block_linear < wk->finding_block && fatal == wk->finding_fatal) &&
        !(f->kind == LAB_SIM_CHECK_UNINIT_SHARED && kind != LAB_SIM_CHECK_UNINIT_SHARED &&
          wk->block_linear == wk->finding_block && fatal == wk->finding_fatal))
        return;
    wk->has_finding = true;
    wk->finding_fatal = fatal;
    wk->finding_block = wk->block_linear;
    f->kind = kind;
    memcpy(f->block, wk->ctaid, sizeof(f->block));
    f->thread[0] = w->tid[0][lane];
    f->thread[1] = w->tid[1][lane];
    f->thread[2] = w->tid[2][lane];
    lab_sim__where(wk->L->m, in, f->where, sizeof(f->where));
    va_start(ap, fmt);
    f->what_format =
        lab_fmtargs_vcapture(&f->what_args, what, sizeof(what), fmt, ap) && !checks[kind].verbatim
            ? fmt
            : NULL;
    va_end(ap);
    if (checks[kind].verbatim)
        snprintf(f->msg, sizeof(f->msg), "%s", what);
    else
        snprintf(f->msg, sizeof(f->msg),
                 "%s: %.300s, thread (%u,%u,%u) of block (%u,%u,%u) at %.100s", checks[kind].name,
                 what, f->thread[0], f->thread[1], f->thread[2], f->block[0], f->block[1],
                 f->block[2], f->where);
}

sim_shadow *
lab_sim__global_shadow(sim_worker *wk, const sim_alloc *a, uint64_t addr)
{
    sim_alloc *ma = (sim_alloc *)a;
    sim_shadow *sh = __atomic_load_n((sim_shadow **)&ma->shadow, __ATOMIC_ACQUIRE);

    if (!sh) {
        lab_sim *s = wk->L->sim;
        pthread_mutex_lock(&s->lock);
        if (!(sh = (sim_shadow *)ma->shadow)) {
            sh = lab_sim__zalloc(lab_sim__shadow_bytes(a), 64);
            __atomic_store_n((sim_shadow **)&ma->shadow, sh, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&s->lock);
        if (!sh)
            return NULL;
    }
    return sh + (addr - a->base) / 4;
}

/* Do two accesses that held lock tags a and b (lab_sim__shadow_note) exclude each other: the
 * same lock, one that a lane took and gave back as a lock should be? */
static bool
guarded(const sim_worker *wk, uint32_t a, uint32_t b)
{
    return a && a == b && a != SIM_LOCK_WORD && a <= wk->nlocks && !wk->locks[a - 1].bad;
}

/* Is sh the shadow of the block's reserved shared memory (cooperative groups' own scratch)? */
static bool
reserved(const sim_worker *wk, const sim_shadow *sh)
{
    return sh >= wk->sh_res && sh < wk->sh_res + SIM_RESERVED_BYTES / 4;
}

void
lab_sim__check_uninit(sim_worker *wk, const sim_warp *w, int lane, const sim_insn *in,
                      sim_shadow *sh)
{
    /* shared memory starts with what the SM's last block left there (the simulator zeroes it:
     * a GPU does not) */
    if (sh->w_epoch >= wk->block_epoch)
        return;
    if (!reserved(wk, sh))
        lab_sim__finding(wk, w, lane, in, LAB_SIM_CHECK_UNINIT_SHARED, false,
                         N_("read of a shared word that no thread of this block wrote (shared "
                            "memory is not initialised: on a GPU it holds what an earlier block "
                            "left there)"));
    lab_sim__shadow_written(wk, sh); /* once a word */
}

/* Thread number t (0-based, within a block of launch L) as its (x,y,z). */
static void
thread_xyz(const sim_launch *L, uint32_t t, unsigned xyz[3])
{
    unsigned bx = L->block[0] ? L->block[0] : 1, by = L->block[1] ? L->block[1] : 1;

    xyz[0] = t % bx;
    xyz[1] = t / bx % by;
    xyz[2] = t / bx / by;
}

void
lab_sim__check_access(sim_worker *wk, const sim_warp *w, int lane, const sim_insn *in,
                      sim_shadow *sh, bool write, bool global)
{
    uint32_t me = w->index * 32 + (uint32_t)lane + 1, epoch = wk->epoch, lock = w->held[lane];
    lab_sim_check race = global ? LAB_SIM_CHECK_RACE_GLOBAL : LAB_SIM_CHECK_RACE_SHARED;
    const char *space = global ? "global" : "shared";

    if (lab_sim__shadow_lock(sh->w_sync) == SIM_LOCK_WORD) {
        if (sh->w_epoch >= wk->block_epoch)
            return; /* a lock's own word: how threads take turns, not data they share */
        sh->w_sync &= SIM_SYNC_BITS; /* an earlier block's lock */
    }
    if (!global && !write)
        lab_sim__check_uninit(wk, w, lane, in, sh);
    /* a child grid sees what its launching thread wrote, and what other threads of its block
     * wrote before a barrier that preceded the launch; not the rest of that interval */
    if (global && sh->w_tid && sh->w_epoch == wk->L->launch_epoch && wk->L->depth &&
        sh->w_tid != wk->L->launcher) {
        uint32_t other = sh->w_tid - 1;
        lab_sim__finding(wk, w, lane, in, race, false,
                         write ? N_("write of a global word that thread %u of the launching "
                                    "block wrote with no __syncthreads() before the launch of "
                                    "this grid (a child grid sees only its launching thread's "
                                    "writes and what a barrier ordered before the launch)")
                               : N_("read of a global word that thread %u of the launching "
                                    "block wrote with no __syncthreads() before the launch of "
                                    "this grid (a child grid sees only its launching thread's "
                                    "writes and what a barrier ordered before the launch)"),
                         other);
    }
    if (sh->w_tid && sh->w_tid != me && sh->w_epoch == epoch &&
        !guarded(wk, lab_sim__shadow_lock(sh->w_sync), lock)) {
        uint32_t other = sh->w_tid - 1;
        if (other / 32 != w->index && write && !(sh->r_tid && sh->r_epoch == epoch)) {
            /* a second store to a word nobody read since the first: no barrier would make
             * this right, as each thread stores once; two threads computed the same index.
             * (Within one warp, lanes that store to one word in one instruction are the
             * GPU's to order, and the last-writer flag idiom is common there: not reported.) */
            unsigned o[3];
            thread_xyz(wk->L, other, o);
            lab_sim__finding(wk, w, lane, in, LAB_SIM_CHECK_DUPLICATE_WRITE, false,
                             global ? N_("thread (%u,%u,%u) of this block stored to this global "
                                         "word too, with no read between: the two threads "
                                         "computed the same index")
                                    : N_("thread (%u,%u,%u) stored to this shared word too, with "
                                         "no read between: the two threads computed the same "
                                         "index"),
                             o[0], o[1], o[2]);
        } else if (other / 32 != w->index) {
            lab_sim__finding(wk, w, lane, in, race, false,
                             write ? N_("write of a %s word that thread %u (warp %u) wrote with "
                                        "no __syncthreads() between")
                                   : N_("read of a %s word that thread %u (warp %u) wrote with "
                                        "no __syncthreads() between"),
                             space, other, other / 32);
        } else if ((sh->w_sync & SIM_SYNC_BITS) == (w->wsync & SIM_SYNC_BITS) && !write) {
            lab_sim__finding(wk, w, lane, in, LAB_SIM_CHECK_WARP_HAZARD, false,
                             N_("read of a %s word that lane %u of the same warp wrote with no "
                                "barrier between (__syncthreads(), or __syncwarp() within a "
                                "warp; volatile does not order lanes since Volta)"),
                             space, other % 32);
        }
    }
    if (write && sh->r_tid && sh->r_tid != me && sh->r_epoch == epoch &&
        !guarded(wk, lab_sim__shadow_lock(sh->r_sync), lock)) {
        uint32_t other = sh->r_tid - 1;
        if (other / 32 != w->index)
            lab_sim__finding(wk, w, lane, in, race, false,
                             N_("write of a %s word that thread %u (warp %u) read with no "
                                "__syncthreads() between"),
                             space, other, other / 32);
        else if ((sh->r_sync & SIM_SYNC_BITS) == (w->wsync & SIM_SYNC_BITS))
            lab_sim__finding(wk, w, lane, in, LAB_SIM_CHECK_WARP_HAZARD, false,
                             N_("write of a %s word that lane %u of the same warp read with no "
                                "barrier between (__syncthreads(), or __syncwarp() within a "
                                "warp; volatile does not order lanes since Volta)"),
                             space, other % 32);
    }
    lab_sim__shadow_note(sh, me, epoch, w->wsync, lock, write);
}

/* --- locks built from atomics ---------------------------------------------- */

#define SIM_MAX_LOCKS 64 /* a block's; words past them are taken as no lock (no race hidden) */

/* The lock on the word at p, its index + 1; made when make; 0: none (or no room) */
static uint32_t
lock_of(sim_worker *wk, const uint8_t *p, bool make)
{
    uint64_t addr = (uint64_t)(uintptr_t)p;

    for (size_t i = 0; i < wk->nlocks; i++)
        if (wk->locks[i].addr == addr)
            return (uint32_t)i + 1;
    if (!make || wk->nlocks == SIM_MAX_LOCKS ||
        !lab_sim__reserve((void **)&wk->locks, wk->nlocks, 1, &wk->lockcap, sizeof(*wk->locks)))
        return 0;
    wk->locks[wk->nlocks] = (sim_lock){ addr, 0, 0, false };
    return (uint32_t)++wk->nlocks;
}

static void
release(sim_warp *w, int l)
{
    w->held[l] = 0;
    w->holding &= ~(1u << l);
    w->fenced &= ~(1u << l);
}

void
lab_sim__lock_atomic(sim_worker *wk, sim_warp *w, int l, const uint8_t *p, sim_shadow *sh,
                     uint64_t old, uint64_t new_value, bool cas)
{
    uint32_t me = w->index * 32 + (uint32_t)l + 1, id;
    sim_lock *k;

    if (w->held[l] && wk->locks[w->held[l] - 1].addr == (uint64_t)(uintptr_t)p) {
        k = &wk->locks[w->held[l] - 1];
        if (new_value == k->free) { /* the holder gives it back: atomicExch(&lock, 0) */
            k->holder = 0;
            release(w, l);
        }
        return;
    }
    if (old == new_value || (!cas && old != 0) || !(id = lock_of(wk, p, true)))
        return; /* a failed try, or no lock protocol */
    k = &wk->locks[id - 1];
    if (k->holder && k->holder != me) {
        k->bad = true; /* taken while another lane holds it: an atomic update, not a lock */
        if (sh)        /* and its word is data, checked again */
            sh->w_sync &= SIM_SYNC_BITS;
        return;
    }
    k->holder = me;
    k->free = old;
    if (w->held[l]) /* one lock a lane: the one it took last */
        wk->locks[w->held[l] - 1].holder = 0;
    w->held[l] = (uint8_t)id;
    w->holding |= 1u << l;
    w->fenced &= ~(1u << l);
    if (sh) { /* the lock's own word is how threads take turns, not data */
        sh->w_tid = sh->r_tid = 0;
        sh->w_sync = (sh->w_sync & SIM_SYNC_BITS) | SIM_LOCK_WORD << 24;
        sh->w_epoch = wk->epoch;
    }
}

void
lab_sim__lock_store(sim_worker *wk, sim_warp *w, int l, const uint8_t *p)
{
    sim_lock *k;

    if (!w->held[l] || (k = &wk->locks[w->held[l] - 1])->addr != (uint64_t)(uintptr_t)p)
        return;
    if (!(w->fenced >> l & 1u))
        k->bad = true; /* the critical section's writes may land after the lock is free */
    k->holder = 0;
    release(w, l);
}
