/*
 * ptxmap.h - a module's PTX read for what the constraints need, without
 * simulating it: its functions, their instructions with the student's
 * source line each comes from, and who calls whom.
 *
 * nvcc -lineinfo marks code with .loc lines; code inlined from a function
 * carries the chain of calls that inlined it:
 *     .loc 1 19 9
 *     .loc 4 364 5, function_name $L__info_string6, inlined_at 1 19 9
 *     .loc 5 115 3, function_name $L__info_string12, inlined_at 4 113 8
 *     redux.sync.add.s32 %r31, %r53, %r50;
 * The student's files are those holding a kernel's first line.  An
 * instruction's source is the student's line it comes from and, when that
 * line called a function of another file (a header's), that function by its
 * name without namespaces or arguments ("cooperative_groups::reduce",
 * "atomicAdd"): the CUDA the student wrote.  Inline PTX (between nvcc's
 * "// begin inline asm" and "// end inline asm") is read like the rest,
 * statement by statement, and marked.
 *
 * Call order: lab_ptxmap_init, lab_ptxmap_build (once), read insns, funcs and
 * lab_ptxmap_where, lab_ptxmap_release.  Pointers into the PTX text (op,
 * args) live as long as the text; the rest as long as the map.
 */
#ifndef LAB_BUILD_PTXMAP_H
#define LAB_BUILD_PTXMAP_H

#include <stdbool.h>
#include <stddef.h>

#include "lab/util/arena.h"
#include "lab/util/err.h"

typedef struct lab_ptxmap_insn {
    const char *op; /* the opcode with its modifiers ("atom.shared.add.u32"), in the text */
    size_t oplen;
    const char *args; /* its operands, up to the ';' */
    size_t argslen;
    unsigned ptx_line;
    unsigned func;       /* index in funcs */
    bool inline_asm;     /* written in asm() (or a header's asm) */
    unsigned file, line; /* the student's line it comes from; file 0: none known */
    const char *callee;  /* the function of another file that line called, or NULL */
    const char *target;  /* bra: its label; call: the function it names (NULL: a register) */
    size_t targetlen;
} lab_ptxmap_insn;

typedef struct lab_ptxmap_func {
    const char *name;  /* mangled, NUL-ended (the arena's) */
    const char *plain; /* demangled, without arguments: "warpSum" */
    bool entry;        /* a kernel */
    bool defined;      /* has a body (not .extern) */
    bool address_taken;
    unsigned first, count; /* its instructions in insns */
} lab_ptxmap_func;

typedef struct lab_ptxmap_label {
    const char *name;
    size_t len;
    unsigned func;
    unsigned insn; /* the index of the instruction it stands before */
} lab_ptxmap_label;

typedef struct lab_ptxmap {
    lab_arena arena;
    lab_ptxmap_insn *insns;
    size_t ninsns;
    lab_ptxmap_func *funcs;
    size_t nfuncs;
    lab_ptxmap_label *labels;
    size_t nlabels;
    const char *files[64]; /* .file N "path", by N */
} lab_ptxmap;

#define LAB_PTXMAP_INIT                                                                            \
    {                                                                                              \
        .arena = LAB_ARENA_INIT                                                                    \
    }

void lab_ptxmap_init(lab_ptxmap *m);
void lab_ptxmap_release(lab_ptxmap *m);
/* Reads ptx (NUL-ended; it must outlive the map).  LAB_ENOMEM only: text it cannot read is
 * skipped. */
int lab_ptxmap_build(lab_ptxmap *m, const char *ptx, lab_err *err);
/* "reduce.cu:19" (the file's last part) where the instruction comes from, else "PTX line 40" */
void lab_ptxmap_where(const lab_ptxmap *m, const lab_ptxmap_insn *in, char *buf, size_t len);
/* Is the opcode (with modifiers) a call: call, call.uni? */
bool lab_ptxmap_opcode_is_call(const char *op, size_t oplen);
/* The function named name (len bytes), or -1 */
long lab_ptxmap_func_find(const lab_ptxmap *m, const char *name, size_t len);
/* The label of function func named name, or NULL */
const lab_ptxmap_label *lab_ptxmap_label_find(const lab_ptxmap *m, unsigned func, const char *name,
                                              size_t len);

#endif
