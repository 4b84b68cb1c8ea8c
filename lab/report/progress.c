/*
 * progress.c - a learner's progress in words (see progress.h).
 */
#include "lab/report/progress.h"
#include "lab/util/i18n.h"

#include <stdio.h>

void
lab_progress_text(const lab_progress *p, char *buf, size_t size)
{
    if (p->attempts == 0)
        snprintf(buf, size, "%s", _("not started"));
    else if (p->best_speedup > 0)
        snprintf(buf, size,
                 p->passed ? _("passed, best %.2fx (%.0f%% of reference)")
                           : _("attempted, best %.2fx (%.0f%% of reference)"),
                 p->best_speedup, 100 * p->best_fraction);
    else
        snprintf(buf, size, p->passed ? _("passed, last %s") : _("attempted, last %s"),
                 p->last_verdict);
}

void
lab_progress_total_text(int passed, size_t exercises, int points, int max_points, char *buf,
                        size_t size)
{
    snprintf(buf, size,
             ngettext("Progress: %d of %zu exercise passed, %d/%d points",
                      "Progress: %d of %zu exercises passed, %d/%d points", exercises),
             passed, exercises, points, max_points);
}
