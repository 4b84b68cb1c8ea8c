/*
 * branches.c - per conditional branch, the warps that executed it and the warps it split
 * (lab_sim_set_branch_counts in sim.h): what `cudalab inspect` shows beside a branch that the
 * listing can only say may diverge.  exec.c counts (lab_sim__count_branch), here the counters
 * are made and read.
 */
#include "lab/sim/internal.h"

#include <stdlib.h>

void
lab_sim_set_branch_counts(lab_sim *s, bool on)
{
    s->branch_counts = on;
}

int
lab_sim__branch_counts_init(lab_sim_module *m, lab_err *err)
{
    uint32_t lines = 0;

    for (const sim_func *f = m->funcs; f; f = f->next)
        for (uint32_t i = 0; i < f->ncode; i++)
            if (f->code[i].ptx_line >= lines)
                lines = f->code[i].ptx_line + 1;
    if (!(m->branch_counts = calloc(2 * (size_t)lines + 2, sizeof(*m->branch_counts))))
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    m->branch_lines = lines;
    return 0;
}

int
lab_sim_branches(const lab_sim_module *m, int (*fn)(const lab_sim_branch *b, void *arg), void *arg)
{
    int rc;

    if (!m->branch_counts)
        return 0;
    for (const sim_func *f = m->funcs; f; f = f->next)
        for (uint32_t i = 0; i < f->ncode; i++) {
            const sim_insn *in = &f->code[i];
            lab_sim_branch b = { .ptx_line = in->ptx_line };
            if (in->cls != CL_BRANCH || in->guard < 0 || in->ptx_line >= m->branch_lines)
                continue;
            b.warps =
                atomic_load_explicit(&m->branch_counts[2 * in->ptx_line], memory_order_relaxed);
            b.divergent =
                atomic_load_explicit(&m->branch_counts[2 * in->ptx_line + 1], memory_order_relaxed);
            if (!b.warps)
                continue;
            lab_sim__where(m, in, b.where, sizeof(b.where));
            if ((rc = fn(&b, arg)) != 0)
                return rc;
        }
    return 0;
}
