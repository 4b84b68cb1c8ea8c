/*
 * modelled.c - the performance model's times as styled lines (see modelled.h).
 */
#include "lab/report/modelled.h"
#include "lab/util/i18n.h"

#include <stdio.h>

/* What each bound of the model means, in the learner's words (lab_model_bound_names are the
 * JSON's); review D8: the bars' labels were the model's own names, unexplained. */
static const char *const bound_words[] = {
    [LAB_MODEL_BOUND_MEMORY] = N_("DRAM bandwidth"),
    [LAB_MODEL_BOUND_L2] = N_("L2 bandwidth"),
    [LAB_MODEL_BOUND_L1] = N_("L1 bandwidth"),
    [LAB_MODEL_BOUND_ISSUE] = N_("instruction issue"),
    [LAB_MODEL_BOUND_SHARED] = N_("shared memory"),
    [LAB_MODEL_BOUND_LATENCY] = N_("memory latency"),
    [LAB_MODEL_BOUND_ATOMICS] = N_("atomics"),
    [LAB_MODEL_BOUND_BLOCKS] = N_("starting blocks"),
    [LAB_MODEL_BOUND_LAUNCH] = N_("launch"),
};
_Static_assert(ARRAY_SIZE(bound_words) == LAB_MODEL_BOUND_COUNT, "one word per bound");

static const char *const role_words[] = {
    [LAB_MODELLED_STUDENT] = N_("student"),
    [LAB_MODELLED_BASELINE] = N_("baseline"),
    [LAB_MODELLED_REFERENCE] = N_("reference"),
};
_Static_assert(ARRAY_SIZE(role_words) == LAB_MODELLED_ROLE_COUNT, "one word per role");

void
lab_modelled_layout(lab_lineout *o, const lab_modelled *m)
{
    lab_lineout_put(o, LAB_TEXT_PLAIN,
                    _("  modelled %s times at n = %lu, from the simulator's counts at n = %lu"),
                    m->gpu.name, m->timed, m->simulated);
    lab_lineout_end(o);
    lab_lineout_put(o, LAB_TEXT_DIM, "%s",
                    _("  bar: the modelled time; #: the share the named resource alone takes"));
    lab_lineout_end(o);
    for (int r = 0; r < LAB_MODELLED_ROLE_COUNT; r++) {
        const lab_model_why *w = &m->why[r];
        char t[32], bar[24], next[96] = "";
        size_t len = 0;
        int fill;
        if (!m->has[r])
            continue;
        lab_lines_format_ns(m->ns[r], t, sizeof(t));
        fill = (int)(20 * w->ns[w->top] / m->ns[r] + 0.5);
        for (int i = 0; i < 20; i++)
            bar[i] = i < fill ? '#' : '.';
        bar[20] = '\0';
        /* the two next largest bounds, for what would come next */
        for (int k = 0, above = w->top; k < 2; k++) {
            int best = -1;
            for (int b = 0; b < LAB_MODEL_BOUND_COUNT; b++)
                if (b != (int)w->top && w->ns[b] > 0 &&
                    (w->ns[b] < w->ns[above] || (w->ns[b] == w->ns[above] && b > above)) &&
                    (best < 0 || w->ns[b] > w->ns[best]))
                    best = b;
            if (best < 0)
                break;
            len += (size_t)snprintf(next + len, sizeof(next) - len, "%s%s %.1f us", k ? ", " : "",
                                    _(bound_words[best]), w->ns[best] / 1e3);
            above = best;
            if (len >= sizeof(next))
                break;
        }
        lab_text_style style = r == LAB_MODELLED_STUDENT ? LAB_TEXT_BOLD : LAB_TEXT_PLAIN;
        lab_lineout_put(o, style, "  ");
        lab_lineout_pad(o, style, _(role_words[r]), 10);
        lab_lineout_put(o, style, " %12s  %s ", t, bar);
        lab_lineout_pad(o, style, _(bound_words[w->top]), 13);
        if (*next)
            lab_lineout_put(o, LAB_TEXT_DIM, _(" then %s"), next);
        lab_lineout_end(o);
    }
}
