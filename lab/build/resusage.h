/*
 * resusage.h - what ptxas says each function of a module uses: registers,
 * barriers, stack frame (local memory per thread), spill stores and loads,
 * static shared memory, constant bank 0.
 *
 * Input is the text of `nvcc -cubin -Xptxas -v` (ptxas prints on stderr):
 *   ptxas info    : Compiling entry function '_Z3fooPi' for 'sm_90'
 *   ptxas info    : Function properties for _Z3fooPi
 *       256 bytes stack frame, 80 bytes spill stores, 100 bytes spill loads
 *   ptxas info    : Used 32 registers, used 1 barriers, 256 bytes cumulative stack size,
 *                   4096 bytes smem, 368 bytes cmem[0]
 * Items of the "Used" line may be missing or in another order; unknown items
 * are skipped.  Non-entry functions (__noinline__ device functions) appear with
 * their properties only.
 *
 * Ownership: lab_resusage_parse fills a lab_resusage the caller releases.
 */
#ifndef LAB_BUILD_RESUSAGE_H
#define LAB_BUILD_RESUSAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "lab/util/err.h"

typedef struct lab_funcres {
    char *name;    /* mangled, as in the PTX */
    char arch[16]; /* "sm_90"; empty for a device function */
    bool entry;    /* a __global__ kernel */
    int regs;      /* -1 when ptxas did not say */
    int barriers;
    long stack_frame;  /* bytes of local memory per thread */
    long spill_stores; /* bytes */
    long spill_loads;  /* bytes */
    long smem;         /* static shared memory, bytes */
    long cmem0;        /* constant bank 0, bytes; -1 when not printed */
    long cumulative_stack;
} lab_funcres;

typedef struct lab_resusage {
    lab_funcres *v;
    size_t n;
} lab_resusage;

#define LAB_RESUSAGE_INIT                                                                          \
    {                                                                                              \
        NULL, 0                                                                                    \
    }

int lab_resusage_parse(const char *text, lab_resusage *out, lab_err *err);
/* The function named mangled, or NULL. */
const lab_funcres *lab_resusage_find(const lab_resusage *r, const char *mangled);
void lab_resusage_release(lab_resusage *r);

#endif
