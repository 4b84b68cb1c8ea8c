/*
 * progress.c - a learner's progress in words (see progress.h).
 */
#include "lab/report/progress.h"

#include <stdio.h>

void
lab_progress_text(const lab_progress *p, char *buf, size_t size)
{
    const char *state = p->passed ? "passed" : "attempted";

    if (p->attempts == 0)
        snprintf(buf, size, "not started");
    else if (p->best_speedup > 0)
        snprintf(buf, size, "%s, best %.2fx (%.0f%% of reference)", state, p->best_speedup,
                 100 * p->best_fraction);
    else
        snprintf(buf, size, "%s, last %s", state, p->last_verdict);
}

void
lab_progress_total_text(int passed, size_t exercises, int points, int max_points, char *buf,
                        size_t size)
{
    snprintf(buf, size, "Progress: %d of %zu exercises passed, %d/%d points", passed, exercises,
             points, max_points);
}
