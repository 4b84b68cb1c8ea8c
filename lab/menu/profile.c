/*
 * profile.c - the exercise view's Profile action: `cudalab profile` as
 * work (job.c, lab_profile with the work's cancel flag, so `c` kills ncu
 * and the driver), then a view of its metric table: per kernel (yours, the
 * previous step, the reference) each metric's nvprof name, ncu's value and
 * the simulator's PTX-level figure, with what it means.  Without ncu or
 * without a GPU it says which and why, and shows the simulator's figures.
 */
#include "lab/menu/menu.h"
#include "lab/instruments/profile.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const role_titles[LAB_PROF_ROLES] = {
    "your kernel",
    "the previous step",
    "the reference solution",
};

typedef struct profile_state {
    lab_menu_viewjob vj; /* key: the exercise */
    const lab_exercise *ex;
    char file[4096];
    lab_profiling p;
} profile_state;

static void
profile_release(void *ptr)
{
    profile_state *s = ptr;

    if (s)
        lab_profiling_release(&s->p);
    free(s);
}

static void
add_role(lab_doc *d, const lab_profiling *p, int r)
{
    bool any = p->has[r];

    for (size_t m = 0; m < p->set.n; m++)
        any = any || p->has_sim[r][m];
    if (!any)
        return;
    lab_doc_add(d, LAB_STYLE_TEXT, "");
    lab_doc_addf(d, LAB_STYLE_HEADING, "%s (%s)", p->kernel[r], role_titles[r]);
    lab_doc_addf(d, LAB_STYLE_STRONG, "  %-30s %14s %16s", "notes (nvprof)", "ncu",
                 "simulator (PTX)");
    for (size_t m = 0; m < p->set.n; m++) {
        const lab_metric *mt = p->set.v[m];
        char v[32], sim[32];
        lab_profile_format(v, sizeof(v), p->has_value[r][m], p->value[r][m], mt->unit);
        if (p->has_sim[r][m])
            lab_profile_format(sim, sizeof(sim), true, p->sim[r][m], mt->unit);
        else
            snprintf(sim, sizeof(sim), "-");
        lab_doc_addf(d, LAB_STYLE_TEXT, "  %-30.30s %14s %16s", mt->nvprof, v, sim);
        lab_doc_addf(d, LAB_STYLE_DIM, "      %s (%s)", mt->meaning, mt->ncu);
    }
}

static int
profile_build(lab_menu *m, lab_menu_view *v, int width)
{
    profile_state *s = v->state;
    const lab_profiling *p = &s->p;

    (void)m;
    (void)width;
    if (s->vj.running) {
        lab_doc_addf(&v->doc, LAB_STYLE_HEADING, "Profiling %s under Nsight Compute", s->file);
        lab_doc_add(&v->doc, LAB_STYLE_DIM, "the line below shows how long; c cancels it");
        return 0;
    }
    if (s->vj.rc < 0) {
        lab_doc_addf(&v->doc, s->vj.rc == LAB_ECANCEL ? LAB_STYLE_WARN : LAB_STYLE_BAD,
                     "profile: %s", s->vj.error);
        return 0;
    }
    lab_doc_addf(&v->doc, LAB_STYLE_STRONG, "%s  %s", s->ex->id, s->file);
    if (p->status == LAB_PROF_OK) {
        lab_doc_addf(&v->doc, LAB_STYLE_TEXT,
                     "on %s (ncu --clock-control none; ncu's times never grade)", p->device);
    } else {
        lab_doc_addf(&v->doc, LAB_STYLE_WARN, "no ncu table: %s", p->why);
        if (p->status == LAB_PROF_COMPILE_ERROR)
            lab_menu_add_text(&v->doc, p->log.buf);
        else if (p->status == LAB_PROF_NCU_FAILED)
            lab_menu_add_text(&v->doc, p->output.buf);
        lab_doc_add(&v->doc, LAB_STYLE_DIM,
                    "(i inspects registers, occupancy and SASS without a "
                    "GPU)");
    }
    for (int r = 0; r < LAB_PROF_ROLES; r++)
        add_role(&v->doc, p, r);
    lab_doc_add(&v->doc, LAB_STYLE_TEXT, "");
    if (p->sim_reported)
        lab_doc_addf(&v->doc, LAB_STYLE_TEXT,
                     "simulator: the same kernels on the PTX simulator at n = %lu (PTX "
                     "instructions, not SASS: counts differ from ncu's)",
                     p->sim_size);
    else
        lab_doc_addf(&v->doc, LAB_STYLE_DIM, "simulator: not available (%s)",
                     p->sim_why[0] ? p->sim_why : "no PTX-level figures in the report");
    return 0;
}

static const lab_menu_key profile_keys[] = {
    { 'c', "c", "cancel the profiling", lab_menu_viewjob_cancel_key },
};

const lab_menu_screen lab_menu_profile = {
    .name = "profile",
    .build = profile_build,
    .keys = profile_keys,
    .nkeys = ARRAY_SIZE(profile_keys),
    .release = profile_release,
};

/* --- profiling as work ---------------------------------------------------------------- */

typedef struct profile_work {
    lab_menu_work base;
    const lab_exercise *ex;
    char file[4096];
    lab_profiling p;
} profile_work;

static int
profile_run(lab_menu_work *w, lab *l, lab_err *err)
{
    profile_work *pw = (profile_work *)w;

    lab_menu_work_stage(w, "compiling, then ncu and the simulator");
    pw->p.cancel = &w->cancel;
    return lab_profile(l, pw->ex, pw->file, &pw->p, err);
}

static void
profile_done(lab_menu *m, lab_menu_work *w, int rc, const lab_err *err)
{
    profile_work *pw = (profile_work *)w;
    profile_state *s = lab_menu_job_view(m, &lab_menu_profile, pw->ex, rc, err);

    if (s) {
        lab_profiling_release(&s->p);
        s->p = pw->p; /* the view owns it now */
        s->p.cancel = NULL;
        lab_profiling_init(&pw->p);
    }
}

static void
profile_free(lab_menu_work *w)
{
    profile_work *pw = (profile_work *)w;

    lab_profiling_release(&pw->p);
    free(pw);
}

int
lab_menu_profile_start(lab_menu *m, const lab_exercise *ex)
{
    profile_state *s;
    profile_work *w;
    lab_buf work = LAB_BUF_INIT;

    lab_work_path(ex, &work);
    if (access(work.buf, F_OK)) {
        lab_menu_status(m, "%s is not there yet: e creates it from the starter", work.buf);
        lab_buf_release(&work);
        return LAB_ENOENT;
    }
    s = calloc(1, sizeof(*s));
    w = calloc(1, sizeof(*w));
    if (!s || !w) {
        free(s);
        free(w);
        lab_buf_release(&work);
        return LAB_ENOMEM;
    }
    snprintf(s->file, sizeof(s->file), "%s", work.buf);
    snprintf(w->file, sizeof(w->file), "%s", work.buf);
    lab_buf_release(&work);
    s->ex = w->ex = ex;
    s->vj.key = ex;
    lab_profiling_init(&s->p);
    lab_profiling_init(&w->p);
    w->base = (lab_menu_work){
        .verb = "profiling", .run = profile_run, .done = profile_done, .free = profile_free
    };
    snprintf(w->base.subject, sizeof(w->base.subject), "%s", ex->id);
    return lab_menu_open_job(m, &lab_menu_profile, s, "profile", &w->base);
}
