/*
 * family.c - the one per-size loop of every family driver (see driver.h):
 * setup, the checks, the timing; the size's host memory freed after it.
 */
#include "lab/harness/choose.h"
#include "lab/harness/driver.h"

#include <string.h>

/* At a timing size: the family's own timing, or every role's launch (or the choice sweep). */
static void
time_size(lab_driver *d, const lab_family_driver *f, void *problem, const lab_size *size,
          lab_err *err)
{
    if (f->time)
        f->time(d, problem, err);
    else if (f->launch)
        lab_choose_time_size(d, size->n, size->bytes, f->launch, problem, err);
}

static void
run_sizes(lab_driver *d, const lab_family_driver *f)
{
    lab_err err = LAB_ERR_INIT;
    lab_rng rng;

    if (f->begin && f->begin(d, &err) < 0) {
        if (!d->failed)
            lab_driver_fail(d, LAB_ROLE_STUDENT, "setup", 0, &err);
        return;
    }
    lab_rng_seed(&rng, d->args.seed);
    for (size_t s = 0; s < d->args.nsizes && !d->failed; s++) {
        lab_size size = { .n = d->args.sizes[s], .rng = &rng };
        void *problem = lab_driver_alloc(d, 1, f->problem_size, &err);

        if (problem)
            memset(problem, 0, f->problem_size);
        if (!problem || f->setup(d, problem, &size, &err) < 0) {
            if (!d->failed)
                lab_driver_fail(d, LAB_ROLE_STUDENT, "setup", size.n, &err);
        } else {
            lab_choose_check_size(d, f->check, problem, &err);
            /* a wrong kernel's speed grades nothing */
            if (!d->failed && !d->wrong && lab_driver_is_timing_size(d, size.n))
                time_size(d, f, problem, &size, &err);
        }
        lab_arena_release(&d->size_memory);
    }
}

int
lab_driver_main(const lab_family_driver *f, const char *program, int argc, char **argv)
{
    lab_driver d;

    if (lab_driver_start(&d, argc, argv, program) == 0 && !d.args.probe && f)
        run_sizes(&d, f);
    return lab_driver_finish(&d);
}
