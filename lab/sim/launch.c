/*
 * launch.c - a kernel launch: check the shape, pack the parameters, run the
 * grid's blocks on a pool of threads, merge what they counted and found, then
 * run the grids it launched from the device.
 *
 * Workers take block numbers from one atomic counter and run each block to
 * its end (exec.c).  Metrics are integer sums, so the merge does not depend
 * on which worker ran which block; of the findings, the one of the lowest
 * block is kept.  A fatal finding or a simulator failure stops all workers,
 * and every grid of the same host launch (they share one sim_root).
 *
 * Device-side launches (dynpar.c) wait in the workers until the parent grid
 * has run to its end; a CDP2 parent cannot wait for its children, so this is
 * one of the GPU's legal schedules.  Then, in the order of the launching
 * block and of the launches within it:
 *   - the grids one block launched into its NULL stream run one after the
 *     other, each complete with all its descendants before the next starts;
 *     the streams of different blocks, and each fire-and-forget grid, are
 *     independent: those of the host's grid are spread over the pool, deeper
 *     ones run on the thread that ran their parent;
 *   - tail launches (cudaStreamTailLaunch) run last, in order, after the
 *     grid's other work is complete.
 * A grid counts as complete only with all of them, as on the GPU, and
 * lab_sim_launch returns only then.
 */
#include "lab/sim/exec.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_THREADS 64

_Static_assert(sizeof(lab_sim_metrics) % sizeof(uint64_t) == 0, "metrics are uint64_t sums");

/* What one grid (with its children) came to; merged into the host launch's result. */
typedef struct grid_out {
    lab_sim_result res;
    bool has_first, first_fatal;
    int rc;
    lab_err err;
} grid_out;

/* A stream of child grids that run one after the other. */
typedef struct group {
    sim_child *first;
    size_t n;
} group;

typedef struct pool {
    lab_sim_module *m;
    sim_root *root;
    unsigned depth;
    group *groups;
    size_t ngroups;
    atomic_size_t next;
} pool;

static int run_grid(lab_sim_module *m, sim_root *root, const sim_child *c, unsigned depth,
                    unsigned threads, grid_out *out);

static void
worker_release(sim_worker *wk)
{
    for (uint32_t i = 0; wk->warps && i < wk->L->nwarps; i++) {
        free(wk->warps[i].frames);
        free(wk->warps[i].rstack);
    }
    free(wk->warps);
    free(wk->regs);
    free(wk->ready);
    free(wk->shared_static);
    free(wk->shared_dyn);
    free(wk->sh_static);
    free(wk->sh_dyn);
    free(wk->shared_res);
    free(wk->sh_res);
    free(wk->locks);
    free(wk->local);
    lab_sim__pbufs_reset(wk);
    free(wk->pbufs);
    lab_sim__sectorset_free(&wk->block_loads);
    lab_sim__sectorset_free(&wk->shared_atoms);
    for (size_t i = 0; i < wk->nchildren; i++)
        free(wk->children[i].params);
    free(wk->children);
    lab_buf_release(&wk->printf_text);
    free(wk->printf_segs);
}

static int
worker_init(sim_worker *wk, sim_launch *L)
{
    size_t nregs = L->f->nregs ? L->f->nregs : 1;

    memset(wk, 0, sizeof(*wk));
    wk->L = L;
    lab_buf_init(&wk->printf_text);
    wk->warps = calloc(L->nwarps, sizeof(sim_warp));
    wk->regs = malloc((size_t)L->nwarps * nregs * 32 * sizeof(uint64_t));
    wk->ready = malloc((size_t)L->nwarps * nregs * sizeof(uint32_t));
    wk->shared_static = calloc(L->shared_static + 16, 1);
    wk->shared_dyn = calloc(L->shared_dyn + 16, 1);
    wk->sh_static = calloc(L->shared_static / 4 + 2, sizeof(sim_shadow));
    wk->sh_dyn = calloc(L->shared_dyn / 4 + 2, sizeof(sim_shadow));
    wk->local = calloc((size_t)L->nwarps * 32 * (L->local_stride + 1), 1);
    wk->shared_res = calloc(SIM_RESERVED_BYTES, 1);
    wk->sh_res = calloc(SIM_RESERVED_BYTES / 4, sizeof(sim_shadow));
    if (!wk->warps || !wk->regs || !wk->ready || !wk->shared_static || !wk->shared_dyn ||
        !wk->sh_static || !wk->sh_dyn || !wk->local || !wk->shared_res || !wk->sh_res)
        return lab_err_set(&wk->err, LAB_ENOMEM, "out of memory for a block");
    return 0;
}

static void *
worker_main(void *arg)
{
    sim_worker *wk = arg;
    sim_launch *L = wk->L;

    while (!atomic_load(&L->root->abort)) {
        uint64_t b = atomic_fetch_add(&L->next_block, 1);
        if (b >= L->nblocks)
            break;
        if (lab_sim__run_block(wk, b) < 0)
            break;
    }
    return NULL;
}

static void
add_metrics(lab_sim_metrics *to, const lab_sim_metrics *from)
{
    uint64_t *t = (uint64_t *)to;
    const uint64_t *f = (const uint64_t *)from;

    for (size_t i = 0; i < sizeof(*to) / sizeof(uint64_t); i++)
        t[i] += f[i];
}

/* Adds b to a: sums, the first simulator error, the first finding (a fatal one wins; else the
 * earlier grid's, as a grid's children run after it). */
static void
merge_out(grid_out *a, const grid_out *b)
{
    add_metrics(&a->res.metrics, &b->res.metrics);
    a->res.nfindings += b->res.nfindings;
    a->res.fatal |= b->res.fatal;
    if (b->rc < 0 && a->rc == 0) {
        a->rc = b->rc;
        a->err = b->err;
    }
    if (b->has_first && (!a->has_first || (b->first_fatal && !a->first_fatal))) {
        a->res.first = b->res.first;
        a->has_first = true;
        a->first_fatal = b->first_fatal;
    }
}

static unsigned
pool_size(const lab_sim *s, uint64_t nblocks)
{
    const char *env = getenv("CUDALAB_SIM_THREADS");
    long n = s->threads;

    if (!n && env && *env)
        n = strtol(env, NULL, 10);
    if (n <= 0)
        n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n <= 0)
        n = 1;
    if (n > MAX_THREADS)
        n = MAX_THREADS;
    if ((uint64_t)n > nblocks)
        n = (long)nblocks;
    return (unsigned)n;
}

/* Runs fn(arg_i) on n threads (the caller's among them) and waits for them. */
static void
run_pool(void *(*fn)(void *), void *args, size_t arg_size, unsigned n)
{
    pthread_t tids[MAX_THREADS];
    unsigned started = 0;

    for (unsigned i = 1; i < n; i++, started++)
        if (pthread_create(&tids[started], NULL, fn, (char *)args + i * arg_size) != 0)
            break;
    fn(args);
    for (unsigned i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
}

static int
cmp_child(const void *a, const void *b)
{
    const sim_child *x = a, *y = b;
    if (x->block_linear != y->block_linear)
        return x->block_linear < y->block_linear ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Runs the child grids of one stream in order; each takes its params (freed here). */
static void
run_group(lab_sim_module *m, sim_root *root, unsigned depth, group *g, grid_out *out)
{
    for (size_t i = 0; i < g->n; i++) {
        sim_child *c = &g->first[i];
        grid_out one = { 0 };
        if (!atomic_load(&root->abort))
            run_grid(m, root, c, depth, 1, &one);
        free(c->params);
        c->params = NULL;
        one.res.metrics.child_grids++;
        merge_out(out, &one);
    }
}

typedef struct pool_slot {
    pool *p;
    grid_out out;
} pool_slot;

static void *
slot_main(void *arg)
{
    pool_slot *s = arg;
    pool *p = s->p;

    for (;;) {
        size_t i = atomic_fetch_add(&p->next, 1);
        if (i >= p->ngroups)
            break;
        run_group(p->m, p->root, p->depth, &p->groups[i], &s->out);
    }
    return NULL;
}

/* Runs the children a grid launched (sorted by block and order), as the header says. */
static int
run_children(lab_sim_module *m, sim_root *root, unsigned depth, sim_child *c, size_t n,
             unsigned threads, grid_out *out)
{
    group *groups = NULL, tails = { NULL, 0 };
    sim_child *sorted = NULL;
    size_t ngroups = 0, k = 0;

    if (!(groups = calloc(n, sizeof(*groups))) || !(sorted = calloc(n, sizeof(*sorted)))) {
        free(groups);
        for (size_t i = 0; i < n; i++)
            free(c[i].params);
        out->rc = lab_err_set(&out->err, LAB_ENOMEM, "out of memory for %zu child grids", n);
        return out->rc;
    }
    qsort(c, n, sizeof(*c), cmp_child);
    /* NULL streams and fire-and-forget grids first, tail launches after them, in one array */
    for (size_t i = 0; i < n; i++)
        if (c[i].stream != SIM_STREAM_TAIL) {
            bool same = k > 0 && c[i].stream == SIM_STREAM_NULL &&
                        sorted[k - 1].stream == SIM_STREAM_NULL &&
                        sorted[k - 1].block_linear == c[i].block_linear;
            sorted[k] = c[i];
            if (same) {
                groups[ngroups - 1].n++;
            } else {
                groups[ngroups++] = (group){ &sorted[k], 1 };
            }
            k++;
        }
    tails.first = &sorted[k];
    for (size_t i = 0; i < n; i++)
        if (c[i].stream == SIM_STREAM_TAIL)
            sorted[k++] = c[i];
    tails.n = (size_t)(&sorted[k] - tails.first);
    threads = threads == 1 ? 1 : pool_size(m->sim, ngroups);
    if (threads > 1) {
        pool p = { .m = m, .root = root, .depth = depth, .groups = groups, .ngroups = ngroups };
        pool_slot *slots = calloc(threads, sizeof(*slots));
        atomic_init(&p.next, 0);
        if (slots) {
            for (unsigned i = 0; i < threads; i++)
                slots[i].p = &p;
            run_pool(slot_main, slots, sizeof(*slots), threads);
            for (unsigned i = 0; i < threads; i++)
                merge_out(out, &slots[i].out);
            free(slots);
            ngroups = 0; /* all run */
        }
    }
    for (size_t i = 0; i < ngroups; i++) /* on this thread */
        run_group(m, root, depth, &groups[i], out);
    run_group(m, root, depth, &tails, out);
    for (size_t i = 0; i < n; i++) /* grids skipped after an abort */
        free(sorted[i].params);
    free(sorted);
    free(groups);
    return out->rc;
}

/* Runs one grid (c: its function, shape and parameters) on `threads` workers (0: a pool, 1:
 * the calling thread), then its children; adds to out. */
static int
run_grid(lab_sim_module *m, sim_root *root, const sim_child *c, unsigned depth, unsigned threads,
         grid_out *out)
{
    sim_launch L;
    sim_worker *workers = NULL;
    sim_child *children = NULL;
    size_t nchildren = 0;
    unsigned nw = 0;
    grid_out mine = { 0 };

    memset(&L, 0, sizeof(L));
    L.f = c->f;
    L.sim = m->sim;
    L.m = m;
    L.root = root;
    L.depth = depth;
    L.launch_epoch = c->epoch;
    L.launcher = c->launcher;
    memcpy(L.grid, c->grid, sizeof(L.grid));
    memcpy(L.block, c->block, sizeof(L.block));
    L.nthreads = L.block[0] * L.block[1] * L.block[2];
    L.nwarps = (L.nthreads + 31) / 32;
    L.shared_static = m->module_shared;
    L.shared_dyn = c->shared_dyn;
    L.nblocks = (uint64_t)L.grid[0] * L.grid[1] * L.grid[2];
    L.checks = m->sim->checks;
    L.params = c->params;
    L.gridid = atomic_fetch_add(&m->sim->grids, 1) + 1;
    L.local_stride = c->f->local_bytes + (m->has_funcs ? SIM_FRAME_ROOM * SIM_CALL_STACK : 0);
    atomic_init(&L.next_block, 0);
    nw = threads == 1 ? 1 : pool_size(m->sim, L.nblocks);
    if (!(workers = calloc(nw, sizeof(*workers)))) {
        out->rc = lab_err_set(&out->err, LAB_ENOMEM, "out of memory");
        return out->rc;
    }
    for (unsigned i = 0; i < nw; i++)
        if (worker_init(&workers[i], &L) < 0) {
            mine.rc = lab_err_set(&mine.err, LAB_ENOMEM, "%s", workers[i].err.msg);
            nw = i + 1;
            goto out;
        }
    run_pool(worker_main, workers, sizeof(*workers), nw);
    lab_sim__printf_merge(root, workers, nw);
    {
        const sim_worker *best = NULL;
        for (unsigned i = 0; i < nw; i++) {
            sim_worker *wk = &workers[i];
            add_metrics(&mine.res.metrics, &wk->metrics);
            mine.res.nfindings += wk->nfindings;
            mine.res.fatal |= wk->fatal;
            if (wk->rc < 0 && mine.rc == 0)
                mine.rc = lab_err_set(&mine.err, wk->rc, "%s", wk->err.msg);
            if (wk->has_finding && (!best || (wk->finding_fatal && !best->finding_fatal) ||
                                    (wk->finding_fatal == best->finding_fatal &&
                                     wk->finding_block < best->finding_block)))
                best = wk;
            nchildren += wk->nchildren;
        }
        if (best) {
            mine.res.first = best->finding;
            mine.has_first = true;
            mine.first_fatal = best->finding_fatal;
        }
    }
    if (nchildren && mine.rc == 0 && !atomic_load(&root->abort)) {
        size_t k = 0;
        if (!(children = malloc(nchildren * sizeof(*children)))) {
            mine.rc = lab_err_set(&mine.err, LAB_ENOMEM, "out of memory");
            goto out;
        }
        for (unsigned i = 0; i < nw; i++) { /* the children's params move here */
            if (workers[i].nchildren)
                memcpy(children + k, workers[i].children, workers[i].nchildren * sizeof(*children));
            k += workers[i].nchildren;
            workers[i].nchildren = 0;
        }
    }
out:
    for (unsigned i = 0; i < nw; i++)
        worker_release(&workers[i]);
    free(workers);
    merge_out(out, &mine);
    if (children) { /* after the parent's own result: its findings come first */
        run_children(m, root, depth + 1, children, nchildren, threads, out);
        free(children);
    }
    return out->rc;
}

int
lab_sim_launch(lab_sim_module *m, const char *kernel, const unsigned grid[3],
               const unsigned block[3], unsigned shared_bytes, void **args, lab_sim_result *out,
               lab_err *err)
{
    const sim_func *f;
    sim_root root;
    grid_out res = { 0 };
    sim_child host = { 0 };
    uint8_t *params;

    memset(out, 0, sizeof(*out));
    if (!(f = lab_sim__entry(m, kernel)))
        return lab_err_set(err, LAB_ENOENT, "'%s' has no kernel '%s'", m->path, kernel);
    for (int i = 0; i < 3; i++)
        if (!grid[i] || !block[i])
            return lab_err_set(err, LAB_EINVAL, "invalid launch shape: a zero dimension");
    if ((uint64_t)block[0] * block[1] * block[2] > 1024 || block[2] > 64 || grid[1] > 65535 ||
        grid[2] > 65535)
        return lab_err_set(err, LAB_EINVAL,
                           "invalid launch shape: block (%u,%u,%u) grid (%u,%u,%u) (at most 1024 "
                           "threads per block, as on the GPU)",
                           block[0], block[1], block[2], grid[0], grid[1], grid[2]);
    if (!(params = calloc(f->param_bytes + 8, 1)))
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    for (uint32_t i = 0; i < f->nparams; i++)
        memcpy(params + f->params[i].offset, args[i], f->params[i].size);
    atomic_init(&root.abort, 0);
    atomic_init(&root.printed, 0);
    atomic_init(&root.printf_cut, 0);
    atomic_init(&root.launches, 0);
    pthread_mutex_init(&root.lock, NULL);
    lab_buf_init(&root.printf_text);
    root.printf_dropped = 0;
    host.f = f;
    memcpy(host.grid, grid, sizeof(host.grid));
    memcpy(host.block, block, sizeof(host.block));
    host.shared_dyn = shared_bytes;
    host.params = params;
    run_grid(m, &root, &host, 0, 0, &res);
    free(params);
    res.res.printf_cut = atomic_load(&root.printf_cut);
    res.res.printf_bytes = atomic_load(&root.printed);
    *out = res.res;
    m->sim->last = *out;
    lab_buf_release(&m->sim->printf_text);
    m->sim->printf_text = root.printf_text; /* moves */
    m->sim->printf_dropped = root.printf_dropped;
    pthread_mutex_destroy(&root.lock);
    if (res.rc < 0)
        return lab_err_set(err, res.rc, "%s", res.err.msg);
    return 0;
}
