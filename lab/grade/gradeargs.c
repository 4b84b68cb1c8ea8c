/*
 * gradeargs.c - a grading's sizes and the driver's command line (see gradeargs.h).
 */
#include "lab/grade/gradeargs.h"
#include "lab/build/ptx.h"
#include "lab/grade/compile.h"
#include "lab/grade/runner.h"
#include "lab/util/i18n.h"
#include <stdio.h>

#include <string.h>

/* The largest size at most cap with size's remainder modulo a power of two (at most 2^16, at
 * most half the cap): 2^20 + 3 capped at 2^20 becomes 983043, so the case whose last block owns
 * three elements is still checked, whatever the block (a power of two up to 1024, times an unroll
 * up to 64). */
static unsigned long
cap_keeping_remainder(unsigned long size, unsigned long cap)
{
    unsigned long m = 1, r, v;

    while (m < 65536 && 4 * m <= cap)
        m *= 2;
    r = size % m;
    v = (cap - r) / m * m + r;
    return v > cap ? v - m : v;
}

/* The exercise's sizes, each at most cap (0: none; a larger one keeps its remainder), without
 * repeats; true when one was cut. */
bool
lab_grading_sizes(const lab_exercise *ex, unsigned long cap, unsigned long *sizes, size_t max,
                  size_t *n)
{
    bool capped = false;

    *n = 0;
    for (size_t i = 0; i < ex->nsizes && *n < max; i++) {
        unsigned long size = ex->sizes[i];
        bool seen = false;
        if (cap && size > cap) {
            size = cap_keeping_remainder(size, cap);
            capped = true;
        }
        for (size_t k = 0; k < *n; k++)
            seen |= sizes[k] == size;
        if (!seen)
            sizes[(*n)++] = size;
    }
    return capped;
}

void
lab_grading_capped_text(const lab_exercise *ex, unsigned long cap, char *buf, size_t size)
{
    size_t len = 0;

    buf[0] = '\0';
    for (size_t i = 0; cap && i < ex->nsizes && len < size; i++) {
        int n;
        if (ex->sizes[i] <= cap)
            continue;
        /* TRANSLATORS: a size of the task, and the size the simulator runs in its place */
        n = snprintf(buf + len, size - len, _("%s%lu as %lu"), len ? ", " : "", ex->sizes[i],
                     cap_keeping_remainder(ex->sizes[i], cap));
        len = n > 0 ? len + (size_t)n : size;
    }
}

/* The driver's arguments for ex at these sizes on backend: the roles, the sizes, the seed, the
 * student's __device__ variables to restore before every run. */
void
lab_grading_driver_args(lab *l, const lab_exercise *ex, const lab_exercise *base_ex,
                        const lab_grading *g, const char *backend, lab_build *student,
                        lab_build *baseline, lab_build *reference, const unsigned long *sizes,
                        size_t nsizes, lab_strvec *args)
{
    bool sim = !strcmp(backend, "sim");
    lab_buf globals = LAB_BUF_INIT;

    lab_strvec_pushf(args, "--backend=%s", backend);
    lab_runner_roles_args(l, args, ex, base_ex, lab_compile_module(ex, student, sim),
                          lab_compile_module(ex, reference, sim),
                          base_ex ? lab_compile_module(base_ex, baseline, sim) : NULL);
    lab_runner_sizes_arg(args, "sizes", sizes, nsizes);
    lab_strvec_pushf(args, "--seed=%llu", (unsigned long long)g->seed);
    if (student->ptx.len && lab_ptx_list_globals(student->ptx.buf, &globals) == 0 && globals.len)
        lab_strvec_pushf(args, "--globals=%s", globals.buf);
    lab_buf_release(&globals);
}
