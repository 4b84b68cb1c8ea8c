/*
 * profile.c - the exercise view's Profile action: `cudalab profile` as
 * work (job.c, lab_profile with the work's cancel flag, so `c` kills ncu
 * and the driver), then a view of its metric table laid out by
 * lab/report/profiling.h, as `cudalab profile` prints it: per kernel (yours,
 * the previous step, the reference) each metric's nvprof name, ncu metric,
 * value, the simulator's PTX-level figure and what it means.  Without ncu or
 * without a GPU it says which and why, and shows the simulator's figures.
 */
#include "lab/menu/menu.h"
#include "lab/util/i18n.h"
#include "lab/instruments/profile.h"
#include "lab/report/profiling.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct profile_state {
    lab_menu_viewjob vj; /* key: the exercise; result: a lab_profiling */
    const lab_exercise *ex;
    char file[4096];
} profile_state;

static void
profiling_free(void *p)
{
    lab_profiling_release(p);
    free(p);
}

static int
profile_build(lab_menu *m, lab_menu_view *v, int width)
{
    profile_state *s = v->state;
    const lab_profiling *p = s->vj.result;

    (void)m;
    if (s->vj.running) {
        lab_doc_addf(&v->doc, LAB_STYLE_HEADING, _("Profiling %s under Nsight Compute"), s->file);
        lab_doc_add(&v->doc, LAB_STYLE_DIM, _("the line below shows how long; c cancels it"));
        return 0;
    }
    if (s->vj.rc < 0 || !p) {
        lab_doc_addf(&v->doc, s->vj.rc == LAB_ECANCEL ? LAB_STYLE_WARN : LAB_STYLE_BAD,
                     "profile: %s", s->vj.error);
        return 0;
    }
    if (p->status != LAB_PROF_OK) {
        lab_doc_addf(&v->doc, LAB_STYLE_WARN, _("no ncu table: %s"), p->why);
        if (p->status == LAB_PROF_COMPILE_ERROR)
            lab_doc_add_text(&v->doc, LAB_STYLE_TEXT, p->log.buf);
        else if (p->status == LAB_PROF_NCU_FAILED)
            lab_doc_add_text(&v->doc, LAB_STYLE_TEXT, p->output.buf);
        lab_doc_add(&v->doc, LAB_STYLE_DIM,
                    _("(i inspects registers, occupancy and SASS without a GPU)"));
        lab_doc_add(&v->doc, LAB_STYLE_TEXT, "");
    }
    return lab_profiling_layout(p, s->ex, width, lab_menu_add_line, &v->doc);
}

static const lab_menu_key profile_keys[] = {
    { 'c', "c", N_("cancel the profiling"), lab_menu_viewjob_cancel_key, NULL },
};

const lab_menu_screen lab_menu_profile = {
    .name = "profile",
    .build = profile_build,
    .keys = profile_keys,
    .nkeys = ARRAY_SIZE(profile_keys),
    .release = lab_menu_viewjob_free,
};

/* --- profiling as work ---------------------------------------------------------------- */

typedef struct profile_work {
    lab_menu_viewwork base; /* result: a lab_profiling */
    const lab_exercise *ex;
    char file[4096];
} profile_work;

static int
profile_run(lab_menu_work *w, lab *l, lab_err *err)
{
    profile_work *pw = (profile_work *)w;
    lab_profiling *p = pw->base.result;
    int rc;

    lab_menu_work_stage(w, _("compiling, then ncu and the simulator"));
    p->cancel = &w->cancel; /* c kills ncu and the driver */
    rc = lab_profile(l, pw->ex, pw->file, p, err);
    p->cancel = NULL;
    return rc;
}

int
lab_menu_profile_start(lab_menu *m, const lab_exercise *ex)
{
    profile_state *s;
    profile_work *w;
    lab_profiling *p;
    lab_buf work = LAB_BUF_INIT;

    lab_work_path(ex, &work);
    if (access(work.buf, F_OK)) {
        lab_menu_status(m, _("%s is not there yet: e creates it from the starter"), work.buf);
        lab_buf_release(&work);
        return LAB_ENOENT;
    }
    s = calloc(1, sizeof(*s));
    w = calloc(1, sizeof(*w));
    p = malloc(sizeof(*p));
    if (!s || !w || !p) {
        free(s);
        free(w);
        free(p);
        lab_buf_release(&work);
        return LAB_ENOMEM;
    }
    lab_profiling_init(p);
    snprintf(s->file, sizeof(s->file), "%s", work.buf);
    snprintf(w->file, sizeof(w->file), "%s", work.buf);
    lab_buf_release(&work);
    s->ex = w->ex = ex;
    s->vj.key = ex;
    w->base = (lab_menu_viewwork){ .base = { .verb = N_("profiling"), .run = profile_run },
                                   .result = p,
                                   .result_free = profiling_free };
    snprintf(w->base.base.subject, sizeof(w->base.base.subject), "%s", ex->id);
    return lab_menu_open_job(m, &lab_menu_profile, s, "profile", &w->base);
}
