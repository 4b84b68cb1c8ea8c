/*
 * rules.h - what an exercise's constraints name by meaning: classes of PTX
 * ("forbid atomics", "require warp-sync"), each defined once, in one table
 * (rules.c): its PTX forms, the CUDA a student writes that produces each,
 * and why an exercise forbids or requires it.
 *
 * A form is an opcode prefix (ending at a dot: "atom" matches
 * atom.global.add.u32 and atom.shared.cas.b32, not "atomic"), the same on
 * shared memory only (the first state space among its modifiers is .shared,
 * .shared::cta or .shared::cluster), a special register read by its whole
 * name (%clock64, %globaltimer_lo), a branch back to an earlier label of its
 * function, or a cycle in the call graph.  Inline PTX is PTX: a red.shared
 * written in asm() is an atomic like the one atomicAdd produces.
 *
 * Each class also lists the old spellings it stands for ("atom", "shfl",
 * "%clock64", "loop"): a manifest that names one means the whole class, so no
 * other spelling of the same thing slips past it.
 *
 * lab/build/constraints.c reads the table; the manifests name its classes
 * (docs/design/grading-policy.md).
 */
#ifndef LAB_BUILD_RULES_H
#define LAB_BUILD_RULES_H

#include <stdbool.h>
#include <stddef.h>

typedef enum lab_rule_class {
    LAB_RULE_ATOMICS,          /* atom, red, the bulk and multimem reductions */
    LAB_RULE_SHARED_ATOMICS,   /* those on shared memory */
    LAB_RULE_WARP_COLLECTIVES, /* shfl, redux, vote, match: lanes exchange values */
    LAB_RULE_WARP_SYNC,        /* bar.warp.sync, and the collectives (they synchronise too) */
    LAB_RULE_WARP_REDUCTIONS,  /* redux: a warp's values combined in one instruction (sm_80) */
    LAB_RULE_LOOPS,            /* a branch back, or recursion */
    LAB_RULE_TIMERS,           /* %clock, %clock_hi, %clock64, %globaltimer(_lo, _hi) */
    LAB_RULE_COUNT
} lab_rule_class;

typedef enum lab_rule_form_kind {
    LAB_FORM_NONE,          /* ends a class's list of forms */
    LAB_FORM_OPCODE,        /* pattern: an opcode prefix ending at a dot */
    LAB_FORM_OPCODE_SHARED, /* the same, with shared memory as its first state space */
    LAB_FORM_REGISTER,      /* pattern: a special register, read by its whole name */
    LAB_FORM_BACK_BRANCH,   /* a branch to a label at or before it in its function */
    LAB_FORM_RECURSION,     /* a call (or a launch) that leads back to its own function */
} lab_rule_form_kind;

typedef struct lab_rule_form {
    lab_rule_form_kind kind;
    const char *pattern; /* OPCODE, OPCODE_SHARED, REGISTER */
    const char *words;   /* the CUDA that produces it: "clock64()"; N_() where prose */
} lab_rule_form;

#define LAB_RULE_MAX_FORMS 10
#define LAB_RULE_MAX_ALIASES 8

typedef struct lab_rule {
    const char *name;    /* the manifest's word: "atomics" */
    const char *what;    /* the class in a sentence: N_("an atomic operation") */
    const char *forbid;  /* why an exercise forbids it: N_() */
    const char *require; /* why an exercise requires it: N_() */
    const char *aliases[LAB_RULE_MAX_ALIASES];   /* old spellings it stands for, NULL-ended */
    lab_rule_form forms[LAB_RULE_MAX_FORMS + 1]; /* ended by LAB_FORM_NONE */
} lab_rule;

/* The table's row of c (borrowed, static) */
const lab_rule *lab_rule_get(lab_rule_class c);
/* The class that a constraint's target (len bytes) names: its name, or an old spelling it
 * stands for.  false: none (a raw spelling such as ld.shared or %ntid). */
bool lab_rule_find(const char *target, size_t len, lab_rule_class *out);
/* Does an instruction (its opcode with modifiers, and its operand text) have one of the
 * opcode or register forms of c?  The form, or NULL. */
const lab_rule_form *lab_rule_match(lab_rule_class c, const char *op, size_t oplen,
                                    const char *args, size_t argslen);
/* Does the class have a form of that kind (loops: back branches, recursion)? */
const lab_rule_form *lab_rule_form_of(lab_rule_class c, lab_rule_form_kind kind);
/* Does the operand text read the special register reg by its whole name (%clock is not
 * %clock64)? */
bool lab_rule_reads_register(const char *args, size_t argslen, const char *reg);
/* Does the opcode op (oplen bytes, with modifiers) start with prefix, ending at a dot? */
bool lab_rule_opcode_is(const char *op, size_t oplen, const char *prefix);

#endif
