/*
 * sass.h - a kernel's machine code (SASS) and PTX, read line by line with the
 * source line each instruction came from, and the instructions the chapters
 * talk about marked: branches against predicated selects, barriers, vector
 * loads, strong system-scope (volatile) accesses, local memory, atomics,
 * shuffles.
 *
 * SASS comes from `nvdisasm -g -c CUBIN` (line info from -lineinfo builds):
 *   //--------------------- .text._Z3fooPi --------------------------
 *   	//## File "/path/foo.cu", line 12
 *           [address 0x0090]      @!P0 BRA `(.L_x_0) ;
 * PTX from the build, with its `.file N "path"` and `.loc N LINE COL` lines.
 * The parsers take text, so tests feed them recorded and live output alike;
 * lab_sass_disassemble runs nvdisasm (a child process, lab/platform/proc).
 *
 * Ownership: a lab_listing owns its lines and strings; lab_listing_release.
 */
#ifndef LAB_BUILD_SASS_H
#define LAB_BUILD_SASS_H

#include <stdbool.h>
#include <stddef.h>

#include "lab/util/err.h"

typedef enum lab_mark {
    LAB_MARK_NONE,
    LAB_MARK_BRANCH,      /* BRA, BRX, JMP: unconditional */
    LAB_MARK_COND_BRANCH, /* @P BRA: the warp may diverge here */
    LAB_MARK_SELECT,      /* SEL, FSEL, selp: both sides computed, no branch */
    LAB_MARK_BARRIER,     /* BAR.SYNC, bar.sync */
    LAB_MARK_WARPSYNC,    /* WARPSYNC, bar.warp.sync */
    LAB_MARK_VECTOR,      /* LDG.E.128, ld.global.v4: one instruction, several words */
    LAB_MARK_STRONG_SYS,  /* LDG.E.STRONG.SYS, ld.volatile: bypasses L1 */
    LAB_MARK_LOCAL,       /* LDL, STL, ld.local: local memory (spills, arrays) */
    LAB_MARK_ATOMIC,      /* ATOM, RED, atom, red */
    LAB_MARK_SHUFFLE,     /* SHFL, shfl.sync */
    LAB_MARK_COUNT
} lab_mark;

typedef struct lab_mark_info {
    const char *name;  /* "cond-branch" (JSON, --diff) */
    const char *label; /* "branch (divergence possible)" */
} lab_mark_info;

extern const lab_mark_info lab_marks[LAB_MARK_COUNT];

typedef struct lab_insn {
    char *function;   /* mangled name of the function it belongs to */
    char *text;       /* "@!P0 BRA `(.L_x_0)" without address and ';' */
    char *opcode;     /* "BRA", "LDG.E.128", "ld.global.v4.f32" */
    long offset;      /* SASS address; -1 for PTX */
    const char *file; /* source file (borrowed from the listing's files), or NULL */
    int line;         /* source line, 0 when unknown */
    bool predicated;
    lab_mark mark;
} lab_insn;

typedef struct lab_listing {
    lab_insn *v;
    size_t n;
    char **files; /* distinct source paths */
    size_t nfiles;
} lab_listing;

#define LAB_LISTING_INIT                                                                           \
    {                                                                                              \
        NULL, 0, NULL, 0                                                                           \
    }

typedef struct lab_mix {
    size_t total;                 /* instructions, padding and NOPs left out */
    size_t marks[LAB_MARK_COUNT]; /* per mark */
} lab_mix;

int lab_sass_parse(const char *nvdisasm_text, lab_listing *out, lab_err *err);
int lab_ptx_listing_parse(const char *ptx, lab_listing *out, lab_err *err);
void lab_listing_release(lab_listing *l);
/* The mix of one function (NULL: all). */
void lab_listing_mix(const lab_listing *l, const char *function, lab_mix *out);
/* Runs `nvdisasm -g -c cubin`; its text in *out (a lab_buf's detached string). */
int lab_sass_disassemble(const char *nvdisasm, const char *cubin, char **out, lab_err *err);

#endif
