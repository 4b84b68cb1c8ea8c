/*
 * profiling.c - a profiling as styled lines (see profiling.h).
 */
#include "lab/report/profiling.h"
#include "lab/util/i18n.h"

#include <stdio.h>

static const char *const role_titles[] = {
    [LAB_PROF_STUDENT] = N_("your kernel"),
    [LAB_PROF_BASELINE] = N_("the previous step"),
    [LAB_PROF_REFERENCE] = N_("the reference solution"),
};
_Static_assert(ARRAY_SIZE(role_titles) == LAB_PROF_ROLES, "one title per role");

/* Why a kernel's PTX count is far below ncu's (review D11: the simulator counts the chapter's
 * reduceNeighbored at 155 instructions a warp, ncu at 293.9): a division is one PTX instruction
 * and a sequence of SASS ones, run in every pass of the loop. */
static void
divides_note(lab_lineout *o, const lab_profiling *p, int r)
{
    if (!p->divides[r])
        return;
    lab_lineout_put(o, LAB_TEXT_DIM,
                    _("  %s divides (a %% or / by a variable): one PTX instruction here, a dozen "
                      "or more SASS instructions on a GPU, so ncu's inst_per_warp is higher"),
                    p->kernel[r]);
    lab_lineout_end(o);
}

/* One kernel's rows of ncu's table: a row per metric, or two narrow lines. */
static void
ncu_table(lab_lineout *o, const lab_profiling *p, int r, bool narrow)
{
    const char *sim_title = p->sim_reported ? _("simulator (PTX)") : _("simulator");

    lab_lineout_end(o);
    lab_lineout_put(o, LAB_TEXT_BOLD, "%s", p->kernel[r]);
    lab_lineout_put(o, LAB_TEXT_PLAIN, " (%s)", _(role_titles[r]));
    lab_lineout_end(o);
    if (narrow)
        lab_lineout_put(o, LAB_TEXT_PLAIN, "  %-29s %12s  %s", _("notes (nvprof)"), _("value"),
                        sim_title);
    else
        lab_lineout_put(o, LAB_TEXT_PLAIN, "  %-29s %-68s %12s  %-16s %s", _("notes (nvprof)"),
                        _("ncu metric"), _("value"), sim_title, _("meaning"));
    lab_lineout_end(o);
    for (size_t m = 0; m < p->set.n; m++) {
        const lab_metric *mt = p->set.v[m];
        char v[32], s[32];
        lab_profile_format(v, sizeof(v), p->has_value[r][m], p->value[r][m], mt->unit);
        if (p->has_sim[r][m])
            lab_profile_format(s, sizeof(s), true, p->sim[r][m], mt->unit);
        else
            snprintf(s, sizeof(s), "%s", _("not available"));
        if (narrow) {
            lab_lineout_put(o, LAB_TEXT_PLAIN, "  %-29s %12s  %s", mt->nvprof, v, s);
            lab_lineout_end(o);
            lab_lineout_put(o, LAB_TEXT_DIM, "      %s (%s)", _(mt->meaning), mt->ncu);
        } else {
            lab_lineout_put(o, LAB_TEXT_PLAIN, "  %-29s %-68s %12s  %-16s %s", mt->nvprof, mt->ncu,
                            v, s, _(mt->meaning));
        }
        lab_lineout_end(o);
    }
    divides_note(o, p, r);
}

/* Without ncu's table: one kernel's simulator figures, when it gave any. */
static void
sim_only(lab_lineout *o, const lab_profiling *p, int r)
{
    bool any = false;

    for (size_t m = 0; m < p->set.n; m++)
        any = any || p->has_sim[r][m];
    if (!any)
        return;
    lab_lineout_put(o, LAB_TEXT_BOLD, "%s", p->kernel[r]);
    lab_lineout_put(o, LAB_TEXT_PLAIN, _(" (%s): the simulator's PTX-level figures at n = %lu"),
                    _(role_titles[r]), p->sim_size);
    lab_lineout_end(o);
    for (size_t m = 0; m < p->set.n; m++) {
        char s[32];
        if (!p->has_sim[r][m])
            continue;
        lab_profile_format(s, sizeof(s), true, p->sim[r][m], p->set.v[m]->unit);
        lab_lineout_put(o, LAB_TEXT_PLAIN, "  %-29s %12s  %s", p->set.v[m]->nvprof, s,
                        _(p->set.v[m]->meaning));
        lab_lineout_end(o);
    }
    divides_note(o, p, r);
}

int
lab_profiling_layout(const lab_profiling *p, const lab_exercise *ex, int width, lab_line_fn fn,
                     void *arg)
{
    const bool narrow = width > 0 && width < LAB_PROFILING_WIDE;
    lab_lineout o;
    int rc;

    lab_lineout_init(&o, fn, arg);
    if (p->status != LAB_PROF_OK) {
        for (int r = 0; r < LAB_PROF_ROLES; r++)
            sim_only(&o, p, r);
        goto out;
    }
    lab_lineout_put(&o, LAB_TEXT_BOLD, "%s", ex->id);
    if (narrow) /* the device on a line of its own */
        lab_lineout_end(&o);
    lab_lineout_put(&o, LAB_TEXT_PLAIN,
                    _("%son %s (ncu --clock-control none; ncu's times never grade)"),
                    narrow ? "" : " ", p->device);
    lab_lineout_end(&o);
    for (int r = 0; r < LAB_PROF_ROLES; r++)
        if (p->has[r])
            ncu_table(&o, p, r, narrow);
    lab_lineout_end(&o);
    if (p->sim_reported)
        lab_lineout_put(&o, LAB_TEXT_PLAIN,
                        _("simulator: the same kernels on the PTX simulator at n = %lu (PTX "
                          "instructions, not SASS: counts differ from ncu's)"),
                        p->sim_size);
    else
        lab_lineout_put(&o, LAB_TEXT_DIM, _("simulator: not available (%s)"),
                        p->sim_why[0] ? p->sim_why : _("no PTX-level figures in the report"));
    lab_lineout_end(&o);
out:
    rc = o.rc;
    lab_lineout_release(&o);
    return rc;
}
