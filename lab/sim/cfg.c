/*
 * cfg.c - basic blocks and immediate post-dominators of one function.
 *
 * Leaders: the first instruction, every branch target, every instruction
 * after a branch or a return.  Successors: a bra's target (and the next block
 * unless the bra is unguarded), the next block, or the virtual EXIT after
 * ret/exit.  Post-dominators come from the iterative algorithm of Cooper,
 * Harvey and Kennedy run on the reverse graph rooted at EXIT; a block that
 * cannot reach EXIT (an endless loop) gets EXIT.  Each bra then records the
 * first pc of its block's ipdom (rpc, SIM_PC_EXIT for EXIT or a block that only
 * returns), whether its target block only returns (exit_target: those lanes
 * retire first), and whether it is a short forward skip that ptxas predicates
 * (predicated: the loads' stretch of code goes on across it, exec.c).
 */
#include "lab/sim/internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct cfg {
    uint32_t nblocks; /* + 1: EXIT is block nblocks */
    uint32_t *start;  /* first pc of each block */
    uint32_t *succ;   /* 2 per block, UINT32_MAX for none */
    uint32_t *order;  /* reverse postorder number on the reverse graph */
    uint32_t *ipdom;
    uint32_t *preds; /* reverse-graph successors = forward predecessors (CSR) */
    uint32_t *pred_off;
} cfg;

static bool
is_branch(const sim_insn *in)
{
    return in->cls == CL_BRANCH;
}

/* ret, exit */
static bool
is_exit(const sim_insn *in)
{
    return in->cls == CL_EXIT;
}

/* an unguarded ret or exit: the lanes that get there leave */
static bool
only_exits(const sim_insn *in)
{
    return is_exit(in) && in->guard < 0;
}

static uint32_t
intersect(const cfg *g, uint32_t a, uint32_t b)
{
    while (a != b) {
        while (g->order[a] < g->order[b])
            a = g->ipdom[a];
        while (g->order[b] < g->order[a])
            b = g->ipdom[b];
    }
    return a;
}

/* Whether the branch at pc skips forward over at most SIM_PREDICATED instructions that hold no
 * branch, barrier, exit or call: ptxas turns such an if into predicated instructions (a guarded
 * load in an unrolled loop), so the stretch of code it may reorder goes on across it. */
#define SIM_PREDICATED 8
static bool
predicated_skip(const sim_func *f, int32_t pc)
{
    const sim_insn *in = &f->code[pc];

    if (in->target <= pc || in->target - pc > SIM_PREDICATED + 1)
        return false;
    for (int32_t k = pc + 1; k < in->target; k++) {
        sim_class c = f->code[k].cls;
        if (c == CL_BRANCH || c == CL_BARRIER || c == CL_EXIT || c == CL_CALL)
            return false;
    }
    return true;
}

int
lab_sim__cfg(sim_func *f, lab_err *err)
{
    uint32_t n = f->ncode, nb = 0, exit_b;
    uint8_t *leader = calloc(n + 1, 1);
    uint32_t *block_of = calloc(n + 1, sizeof(uint32_t));
    uint32_t *stack = NULL, *rpo = NULL;
    cfg g = { 0 };
    int rc = 0;

    if (!leader || !block_of) {
        rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
        goto out;
    }
    if (n == 0)
        goto out;
    leader[0] = 1;
    for (uint32_t i = 0; i < n; i++) {
        if (is_branch(&f->code[i]))
            leader[f->code[i].target] = 1;
        if ((is_branch(&f->code[i]) || is_exit(&f->code[i])) && i + 1 < n)
            leader[i + 1] = 1;
    }
    for (uint32_t i = 0; i < n; i++)
        nb += leader[i];
    exit_b = nb;
    g.nblocks = nb;
    g.start = calloc(nb + 1, sizeof(uint32_t));
    g.succ = calloc(2 * (nb + 1), sizeof(uint32_t));
    g.order = calloc(nb + 1, sizeof(uint32_t));
    g.ipdom = calloc(nb + 1, sizeof(uint32_t));
    g.pred_off = calloc(nb + 2, sizeof(uint32_t));
    g.preds = calloc(2 * (nb + 1), sizeof(uint32_t));
    stack = calloc(2 * (nb + 1), sizeof(uint32_t));
    rpo = calloc(nb + 1, sizeof(uint32_t));
    if (!g.start || !g.succ || !g.order || !g.ipdom || !g.pred_off || !g.preds || !stack || !rpo) {
        rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
        goto out;
    }
    for (uint32_t i = 0, b = 0; i < n; i++) {
        if (leader[i])
            g.start[b++] = i;
        block_of[i] = b - 1;
    }
    g.start[nb] = SIM_PC_EXIT;
    for (uint32_t b = 0; b < nb; b++) {
        uint32_t last = (b + 1 < nb ? g.start[b + 1] : n) - 1;
        const sim_insn *in = &f->code[last];
        uint32_t *s = &g.succ[2 * b];
        s[0] = s[1] = UINT32_MAX;
        s[0] = last + 1 < n ? block_of[last + 1] : exit_b; /* falls through */
        if (is_exit(in) || is_branch(in)) {
            if (in->guard >= 0) /* the lanes whose guard is false fall through */
                s[1] = s[0];
            /* a label after the last instruction (ptxas takes it) leaves the function */
            s[0] = is_exit(in) || (uint32_t)in->target >= n ? exit_b : block_of[in->target];
        }
    }
    g.succ[2 * nb] = g.succ[2 * nb + 1] = UINT32_MAX;
    /* predecessors in CSR form */
    for (uint32_t b = 0; b < nb; b++)
        for (int k = 0; k < 2; k++)
            if (g.succ[2 * b + k] != UINT32_MAX)
                g.pred_off[g.succ[2 * b + k] + 1]++;
    for (uint32_t b = 0; b <= nb; b++)
        g.pred_off[b + 1] += g.pred_off[b];
    {
        uint32_t *fill = calloc(nb + 1, sizeof(uint32_t));
        if (!fill) {
            rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
            goto out;
        }
        for (uint32_t b = 0; b < nb; b++)
            for (int k = 0; k < 2; k++) {
                uint32_t s = g.succ[2 * b + k];
                if (s != UINT32_MAX)
                    g.preds[g.pred_off[s] + fill[s]++] = b;
            }
        free(fill);
    }
    /* postorder DFS from EXIT over predecessors (the reverse graph) */
    {
        uint8_t *seen = calloc(nb + 1, 1);
        uint32_t *iter = calloc(nb + 1, sizeof(uint32_t));
        uint32_t sp = 0, count = 0;
        if (!seen || !iter) {
            free(seen);
            free(iter);
            rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
            goto out;
        }
        stack[sp++] = exit_b;
        seen[exit_b] = 1;
        while (sp) {
            uint32_t b = stack[sp - 1];
            if (g.pred_off[b] + iter[b] < g.pred_off[b + 1]) {
                uint32_t p = g.preds[g.pred_off[b] + iter[b]++];
                if (!seen[p]) {
                    seen[p] = 1;
                    stack[sp++] = p;
                }
            } else {
                rpo[count++] = b;
                sp--;
            }
        }
        /* order: higher = closer to the root (postorder number) */
        for (uint32_t b = 0; b <= nb; b++)
            g.order[b] = 0;
        for (uint32_t i = 0; i < count; i++)
            g.order[rpo[i]] = i + 1;
        for (uint32_t b = 0; b <= nb; b++)
            g.ipdom[b] = seen[b] ? UINT32_MAX : exit_b;
        g.ipdom[exit_b] = exit_b;
        /* blocks that cannot reach EXIT: treat as post-dominated by EXIT */
        for (uint32_t b = 0; b < nb; b++)
            if (!seen[b])
                g.order[b] = 0;
        bool changed = true;
        while (changed) {
            changed = false;
            for (uint32_t i = count; i-- > 0;) {
                uint32_t b = rpo[i], nd = UINT32_MAX;
                if (b == exit_b)
                    continue;
                for (int k = 0; k < 2; k++) {
                    uint32_t s = g.succ[2 * b + k];
                    if (s == UINT32_MAX || g.ipdom[s] == UINT32_MAX || !seen[s])
                        continue;
                    nd = nd == UINT32_MAX ? s : intersect(&g, s, nd);
                }
                if (nd != UINT32_MAX && g.ipdom[b] != nd) {
                    g.ipdom[b] = nd;
                    changed = true;
                }
            }
        }
        for (uint32_t b = 0; b < nb; b++)
            if (g.ipdom[b] == UINT32_MAX)
                g.ipdom[b] = exit_b;
        free(seen);
        free(iter);
    }
    for (uint32_t i = 0; i < n; i++) {
        sim_insn *in = &f->code[i];
        if (!is_branch(in))
            continue;
        uint32_t pd = g.ipdom[block_of[i]];
        const sim_insn *t = (uint32_t)in->target < n ? &f->code[in->target] : NULL;
        /* a ret-only ipdom is EXIT: lanes that get there retire at once (SASS: @P0 EXIT),
         * so they neither wait there nor hold up a barrier of the others */
        if (pd != exit_b && only_exits(&f->code[g.start[pd]]))
            pd = exit_b;
        in->rpc = pd == exit_b ? SIM_PC_EXIT : (int32_t)g.start[pd];
        in->exit_target = !t || only_exits(t);
        in->predicated = predicated_skip(f, (int32_t)i);
    }
out:
    free(leader);
    free(block_of);
    free(stack);
    free(rpo);
    free(g.start);
    free(g.succ);
    free(g.order);
    free(g.ipdom);
    free(g.preds);
    free(g.pred_off);
    return rc;
}
