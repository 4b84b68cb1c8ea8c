/*
 * modelled.c - the performance model's times as styled lines (see modelled.h).
 */
#include "lab/report/modelled.h"
#include "lab/util/i18n.h"

#include <stdio.h>

void
lab_modelled_layout(lab_lineout *o, const lab_modelled *m)
{
    lab_lineout_put(o, LAB_TEXT_PLAIN,
                    _("  modelled %s times at n = %lu, from the simulator's counts at n = %lu"),
                    m->gpu.name, m->timed, m->simulated);
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
                                    lab_model_bound_names[best], w->ns[best] / 1e3);
            above = best;
            if (len >= sizeof(next))
                break;
        }
        lab_lineout_put(o, r == LAB_MODELLED_STUDENT ? LAB_TEXT_BOLD : LAB_TEXT_PLAIN,
                        "  %-10s %12s  %s %-13s", lab_modelled_role_names[r], t, bar,
                        lab_model_bound_names[w->top]);
        lab_lineout_put(o, LAB_TEXT_DIM, _(" then %s"), next);
        lab_lineout_end(o);
    }
}
