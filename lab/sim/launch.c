/*
 * launch.c - a kernel launch: check the shape, pack the parameters, run the
 * grid's blocks on a pool of threads, merge what they counted and found.
 *
 * Workers take block numbers from one atomic counter and run each block to
 * its end (exec.c).  Metrics are integer sums, so the merge does not depend
 * on which worker ran which block; of the findings, the one of the lowest
 * block is kept.  A fatal finding or a simulator failure stops all workers.
 */
#include "lab/sim/exec.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_THREADS 64

static void
worker_release(sim_worker *wk)
{
    free(wk->warps);
    free(wk->regs);
    free(wk->shared_static);
    free(wk->shared_dyn);
    free(wk->sh_static);
    free(wk->sh_dyn);
    free(wk->local);
}

static int
worker_init(sim_worker *wk, sim_launch *L)
{
    size_t nregs = L->f->nregs ? L->f->nregs : 1;

    memset(wk, 0, sizeof(*wk));
    wk->L = L;
    wk->warps = calloc(L->nwarps, sizeof(sim_warp));
    wk->regs = malloc((size_t)L->nwarps * nregs * 32 * sizeof(uint64_t));
    wk->shared_static = calloc(L->shared_static + 16, 1);
    wk->shared_dyn = calloc(L->shared_dyn + 16, 1);
    wk->sh_static = calloc(L->shared_static / 4 + 2, sizeof(sim_shadow));
    wk->sh_dyn = calloc(L->shared_dyn / 4 + 2, sizeof(sim_shadow));
    wk->local = calloc((size_t)L->nwarps * 32 * (L->f->local_bytes + 1), 1);
    if (!wk->warps || !wk->regs || !wk->shared_static || !wk->shared_dyn || !wk->sh_static ||
        !wk->sh_dyn || !wk->local)
        return lab_err_set(&wk->err, LAB_ENOMEM, "out of memory for a block");
    return 0;
}

static void *
worker_main(void *arg)
{
    sim_worker *wk = arg;
    sim_launch *L = wk->L;

    while (!atomic_load(&L->abort)) {
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
    to->warps += from->warps;
    to->warp_insts += from->warp_insts;
    to->thread_insts += from->thread_insts;
    to->branches += from->branches;
    to->divergent += from->divergent;
    to->gld_requests += from->gld_requests;
    to->gld_sectors += from->gld_sectors;
    to->gld_bytes += from->gld_bytes;
    to->gst_requests += from->gst_requests;
    to->gst_sectors += from->gst_sectors;
    to->gst_bytes += from->gst_bytes;
    to->shared_requests += from->shared_requests;
    to->shared_wavefronts += from->shared_wavefronts;
    to->shared_conflicts += from->shared_conflicts;
    to->gatom_requests += from->gatom_requests;
    to->gatom_sectors += from->gatom_sectors;
    to->shared_atom_requests += from->shared_atom_requests;
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

static const sim_func *
find_kernel(const lab_sim_module *m, const char *name)
{
    for (const sim_func *f = m->funcs; f; f = f->next)
        if (f->entry && !strcmp(f->name, name))
            return f;
    return NULL;
}

int
lab_sim_launch(lab_sim_module *m, const char *kernel, const unsigned grid[3],
               const unsigned block[3], unsigned shared_bytes, void **args, lab_sim_result *out,
               lab_err *err)
{
    sim_launch L;
    sim_worker *workers = NULL;
    pthread_t tids[MAX_THREADS];
    unsigned nw = 0, started = 0;
    int rc = 0;

    memset(out, 0, sizeof(*out));
    memset(&L, 0, sizeof(L));
    if (!(L.f = find_kernel(m, kernel)))
        return lab_err_set(err, LAB_ENOENT, "'%s' has no kernel '%s'", m->path, kernel);
    for (int i = 0; i < 3; i++) {
        if (!grid[i] || !block[i])
            return lab_err_set(err, LAB_EINVAL, "invalid launch shape: a zero dimension");
        L.grid[i] = grid[i];
        L.block[i] = block[i];
    }
    L.nthreads = block[0] * block[1] * block[2];
    if (L.nthreads > 1024 || block[2] > 64 || grid[1] > 65535 || grid[2] > 65535)
        return lab_err_set(err, LAB_EINVAL,
                           "invalid launch shape: block (%u,%u,%u) grid (%u,%u,%u) (at most 1024 "
                           "threads per block, as on the GPU)",
                           block[0], block[1], block[2], grid[0], grid[1], grid[2]);
    L.sim = m->sim;
    L.m = m;
    L.nwarps = (L.nthreads + 31) / 32;
    L.shared_static = m->module_shared;
    L.shared_dyn = shared_bytes;
    L.nblocks = (uint64_t)grid[0] * grid[1] * grid[2];
    L.checks = m->sim->checks;
    atomic_init(&L.next_block, 0);
    atomic_init(&L.abort, 0);
    if (!(L.params = calloc(L.f->param_bytes + 8, 1)))
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    for (uint32_t i = 0; i < L.f->nparams; i++)
        memcpy(L.params + L.f->params[i].offset, args[i], L.f->params[i].size);
    nw = pool_size(m->sim, L.nblocks);
    if (!(workers = calloc(nw, sizeof(*workers)))) {
        rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
        goto out;
    }
    for (unsigned i = 0; i < nw; i++)
        if ((rc = worker_init(&workers[i], &L)) < 0) {
            lab_err_set(err, rc, "%s", workers[i].err.msg);
            nw = i + 1;
            goto out;
        }
    if (nw == 1) {
        worker_main(&workers[0]);
    } else {
        for (started = 0; started < nw; started++)
            if (pthread_create(&tids[started], NULL, worker_main, &workers[started]) != 0)
                break;
        if (started == 0)
            worker_main(&workers[0]);
        for (unsigned i = 0; i < started; i++)
            pthread_join(tids[i], NULL);
    }
    {
        const sim_worker *best = NULL;
        for (unsigned i = 0; i < nw; i++) {
            sim_worker *wk = &workers[i];
            add_metrics(&out->metrics, &wk->metrics);
            out->nfindings += wk->nfindings;
            out->fatal |= wk->fatal;
            if (wk->rc < 0 && rc == 0)
                rc = lab_err_set(err, wk->rc, "%s", wk->err.msg);
            if (wk->has_finding && (!best || (wk->finding_fatal && !best->finding_fatal) ||
                                    (wk->finding_fatal == best->finding_fatal &&
                                     wk->finding_block < best->finding_block)))
                best = wk;
        }
        if (best)
            out->first = best->finding;
    }
    m->sim->last = *out;
out:
    for (unsigned i = 0; workers && i < nw; i++)
        worker_release(&workers[i]);
    free(workers);
    free(L.params);
    return rc;
}
