/*
 * rules.c - the one table of the classes an exercise's constraints name (see
 * rules.h): per class its PTX forms, the CUDA that produces each, the old
 * spellings it stands for, and why an exercise forbids or requires it.
 *
 * The forms come from what nvcc 13.0 emits (tests/rules/forms.cu is built and
 * checked against this table by tests/test-constraints.c): atomicAdd is
 * atom.*.add even when its result is unused (red appears in SASS only, or in
 * inline PTX), atomicAdd_block is atom.*.cta.add, __reduce_add_sync and
 * cooperative_groups::reduce are redux.sync, __syncwarp() is bar.warp.sync,
 * clock() and clock64() both read %clock64.
 */
#include "lab/build/rules.h"

#include "lab/util/err.h"
#include "lab/util/i18n.h"

#include <ctype.h>
#include <string.h>

/* What produces the forms that more than one class has */
#define ATOM_WORDS                                                                                 \
    "atomicAdd, atomicSub, atomicExch, atomicCAS, atomicMin, atomicMax, atomicInc, atomicDec, "    \
    "atomicAnd, atomicOr, atomicXor"
#define RED_WORDS "inline PTX"
#define BULK_WORDS "inline PTX (the bulk copy unit's reductions)"
#define SHFL_WORDS "__shfl_sync, __shfl_up_sync, __shfl_down_sync, __shfl_xor_sync"
#define REDUX_WORDS                                                                                \
    "__reduce_add_sync, __reduce_min_sync, __reduce_max_sync, __reduce_and_sync, "                 \
    "__reduce_or_sync, __reduce_xor_sync, cooperative_groups::reduce"
#define VOTE_WORDS "__ballot_sync, __all_sync, __any_sync, __uni_sync"
#define MATCH_WORDS "__match_any_sync, __match_all_sync"

static const lab_rule rules[] = {
    [LAB_RULE_ATOMICS] = {
        .name = "atomics",
        .what = N_("an atomic operation"),
        .forbid = N_("this step combines the values itself; an atomic operation hands the "
                     "combining to the memory system"),
        .require = N_("this step is about combining values with atomic operations"),
        .aliases = { "atom", "red" },
        .forms = {
            { LAB_FORM_OPCODE, "atom", ATOM_WORDS },
            { LAB_FORM_OPCODE, "red", RED_WORDS },
            { LAB_FORM_OPCODE, "cp.reduce.async.bulk", BULK_WORDS },
            { LAB_FORM_OPCODE, "multimem.red", "inline PTX (multimem)" },
            { LAB_FORM_OPCODE, "multimem.ld_reduce", "inline PTX (multimem)" },
        } },
    [LAB_RULE_SHARED_ATOMICS] = {
        .name = "shared-atomics",
        .what = N_("an atomic operation on shared memory"),
        .forbid = N_("this step combines the block's values in shared memory with its own "
                     "tree; a shared-memory atomic hands that to the hardware"),
        .require = N_("this step combines the block's values with atomic operations on "
                      "shared memory"),
        .aliases = { "atom.shared", "red.shared" },
        .forms = {
            { LAB_FORM_OPCODE_SHARED, "atom", ATOM_WORDS },
            { LAB_FORM_OPCODE_SHARED, "red", RED_WORDS },
            { LAB_FORM_OPCODE_SHARED, "cp.reduce.async.bulk", BULK_WORDS },
        } },
    [LAB_RULE_WARP_COLLECTIVES] = {
        .name = "warp-collectives",
        .what = N_("a warp collective (a shuffle, reduce, vote or match)"),
        .forbid = N_("this step passes values between threads through memory; a warp "
                     "collective passes them between lanes in hardware, which is a later step"),
        .require = N_("this step passes values between the lanes of a warp in registers"),
        .aliases = { "shfl", "shfl.sync", "redux", "redux.sync", "vote", "vote.sync", "match" },
        .forms = {
            { LAB_FORM_OPCODE, "shfl", SHFL_WORDS },
            { LAB_FORM_OPCODE, "redux", REDUX_WORDS },
            { LAB_FORM_OPCODE, "vote", VOTE_WORDS },
            { LAB_FORM_OPCODE, "match", MATCH_WORDS },
        } },
    [LAB_RULE_WARP_SYNC] = {
        .name = "warp-sync",
        .what = N_("warp-level synchronisation (__syncwarp() or a warp collective)"),
        .forbid = N_("this step synchronises whole blocks only"),
        .require = N_("since Volta the lanes of a warp do not move in lockstep: what one lane "
                      "reads of another's writes needs __syncwarp() (or a warp collective) "
                      "between"),
        .aliases = { "bar.warp.sync" },
        .forms = {
            { LAB_FORM_OPCODE, "bar.warp.sync", "__syncwarp()" },
            { LAB_FORM_OPCODE, "shfl.sync", SHFL_WORDS },
            { LAB_FORM_OPCODE, "redux.sync", REDUX_WORDS },
            { LAB_FORM_OPCODE, "vote.sync", VOTE_WORDS },
            { LAB_FORM_OPCODE, "match", MATCH_WORDS },
        } },
    [LAB_RULE_WARP_REDUCTIONS] = {
        .name = "warp-reductions",
        .what = N_("a warp reduction in one instruction (__reduce_add_sync, cg::reduce)"),
        .forbid = N_("this step adds a warp's values itself, by shuffles or through memory"),
        .require = N_("since sm_80 a warp adds its 32 values in one instruction, redux.sync: "
                      "this step asks for it"),
        .forms = {
            { LAB_FORM_OPCODE, "redux", REDUX_WORDS },
        } },
    [LAB_RULE_LOOPS] = {
        .name = "loops",
        .what = N_("a loop"),
        .forbid = N_("this step writes every round out, so that each is a line of its own "
                     "with no loop counter or test"),
        .require = N_("this step repeats its work in a loop"),
        .aliases = { "loop" },
        .forms = {
            { LAB_FORM_BACK_BRANCH, NULL,
              N_("a branch back (a for, while or do loop, or a call of itself that the compiler "
                 "made a loop)") },
            { LAB_FORM_RECURSION, NULL, N_("a function that calls itself (recursion)") },
        } },
    [LAB_RULE_TIMERS] = {
        .name = "timers",
        .what = N_("a clock read"),
        .forbid = N_("a kernel that reads a clock can tell a timed run from a checked one"),
        .require = N_("this step measures time inside the kernel"),
        .aliases = { "%clock", "%clock_hi", "%clock64", "%globaltimer", "%globaltimer_lo",
                     "%globaltimer_hi" },
        .forms = {
            { LAB_FORM_REGISTER, "%clock", "clock()" },
            { LAB_FORM_REGISTER, "%clock_hi", "clock()" },
            { LAB_FORM_REGISTER, "%clock64", "clock64() or clock()" },
            { LAB_FORM_REGISTER, "%globaltimer", "%globaltimer" },
            { LAB_FORM_REGISTER, "%globaltimer_lo", "%globaltimer_lo" },
            { LAB_FORM_REGISTER, "%globaltimer_hi", "%globaltimer_hi" },
        } },
};
_Static_assert(ARRAY_SIZE(rules) == LAB_RULE_COUNT, "one row per class");

const lab_rule *
lab_rule_get(lab_rule_class c)
{
    return (unsigned)c < LAB_RULE_COUNT ? &rules[c] : NULL;
}

bool
lab_rule_find(const char *target, size_t len, lab_rule_class *out)
{
    for (unsigned c = 0; c < LAB_RULE_COUNT; c++) {
        bool named = strlen(rules[c].name) == len && !strncmp(rules[c].name, target, len);
        for (const char *const *a = rules[c].aliases; !named && *a; a++)
            named = strlen(*a) == len && !strncmp(*a, target, len);
        if (named) {
            *out = (lab_rule_class)c;
            return true;
        }
    }
    return false;
}

bool
lab_rule_opcode_is(const char *op, size_t oplen, const char *prefix)
{
    size_t n = strlen(prefix);

    /* "atom" matches atom.global.add but not atomically-named things: the prefix ends at a dot */
    return oplen >= n && !strncmp(op, prefix, n) && (oplen == n || op[n] == '.');
}

/* Is the first state space among the opcode's modifiers shared memory (.shared, .shared::cta,
 * .shared::cluster)?  atom.acq_rel.gpu.shared::cta.add: yes; cp.reduce.async.bulk.global.
 * shared::cta (into global memory, from shared): no; atom.add (generic): no. */
static bool
on_shared(const char *op, size_t oplen)
{
    static const char *const spaces[] = { "global", "shared", "local", "param", "const" };

    for (size_t i = 0; i < oplen; i++) {
        if (op[i] != '.')
            continue;
        for (size_t s = 0; s < ARRAY_SIZE(spaces); s++) {
            size_t n = strlen(spaces[s]);
            if (i + 1 + n <= oplen && !strncmp(op + i + 1, spaces[s], n) &&
                (i + 1 + n == oplen || op[i + 1 + n] == '.' || op[i + 1 + n] == ':'))
                return s == 1;
        }
    }
    return false;
}

bool
lab_rule_reads_register(const char *args, size_t argslen, const char *reg)
{
    size_t n = strlen(reg);

    for (size_t i = 0; i + n <= argslen; i++)
        if (!strncmp(args + i, reg, n) &&
            (i + n == argslen || !(isalnum((unsigned char)args[i + n]) || args[i + n] == '_')))
            return true;
    return false;
}

const lab_rule_form *
lab_rule_match(lab_rule_class c, const char *op, size_t oplen, const char *args, size_t argslen)
{
    const lab_rule *r = lab_rule_get(c);

    for (const lab_rule_form *f = r ? r->forms : NULL; f && f->kind != LAB_FORM_NONE; f++)
        switch (f->kind) {
        case LAB_FORM_OPCODE:
            if (lab_rule_opcode_is(op, oplen, f->pattern))
                return f;
            break;
        case LAB_FORM_OPCODE_SHARED:
            if (lab_rule_opcode_is(op, oplen, f->pattern) && on_shared(op, oplen))
                return f;
            break;
        case LAB_FORM_REGISTER:
            if (lab_rule_reads_register(args, argslen, f->pattern))
                return f;
            break;
        default: /* structural: the constraint checker finds them */
            break;
        }
    return NULL;
}

const lab_rule_form *
lab_rule_form_of(lab_rule_class c, lab_rule_form_kind kind)
{
    const lab_rule *r = lab_rule_get(c);

    for (const lab_rule_form *f = r ? r->forms : NULL; f && f->kind != LAB_FORM_NONE; f++)
        if (f->kind == kind)
            return f;
    return NULL;
}
