/*
 * grading.c - a grading as the menu's work (job.c): lab_grade in the worker
 * with its stages on the progress line; when done, the grading becomes a
 * lab_menu_graded (menu.h) that the exercise view and, unless watch mode
 * graded it, a result view hold and lay out by lab/report/grading.h (as
 * `cudalab grade` prints it) at their width.
 */
#include "lab/menu/menu.h"
#include "lab/util/i18n.h"
#include "lab/report/grading.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct grade_work {
    lab_menu_work base;
    const lab_exercise *ex;
    char file[4096];
    lab_grade_request req;
    lab_grading g;
} grade_work;

static void
on_stage(lab_stage stage, const char *what, void *arg)
{
    char text[160];

    snprintf(text, sizeof(text), "%s %s", lab_stage_name(stage), what);
    lab_menu_work_stage(arg, text);
}

static int
grade_run(lab_menu_work *w, lab *l, lab_err *err)
{
    grade_work *g = (grade_work *)w;

    return lab_grade(l, &g->req, &g->g, err);
}

struct lab_menu_graded {
    int refs;
    const lab_exercise *ex;
    char file[4096];
    int rc;          /* the grading's: 0, LAB_ECANCEL or a lab error */
    char error[512]; /* when rc < 0 */
    lab_grading g;   /* when rc == 0, or g.judged: graded, then not recorded */
};

lab_menu_graded *
lab_menu_graded_hold(lab_menu_graded *gr)
{
    gr->refs++;
    return gr;
}

void
lab_menu_graded_put(lab_menu_graded *gr)
{
    if (!gr || --gr->refs > 0)
        return;
    lab_grading_release(&gr->g);
    free(gr);
}

const lab_exercise *
lab_menu_graded_exercise(const lab_menu_graded *gr)
{
    return gr->ex;
}

bool
lab_menu_graded_passed(const lab_menu_graded *gr)
{
    return gr->rc == 0 && gr->g.result.verdict == LAB_VERDICT_PASS;
}

/* The grading as lines laid out for width, as `cudalab grade` prints it, or why there is none. */
static int
result_lines(const lab_menu_graded *gr, int width, lab_lines *out)
{
    lab_lineout o;
    int rc, lrc;

    if (gr->g.judged &&
        (lrc = lab_grading_layout(&gr->g, gr->ex, gr->file, width > 0 ? (size_t)width : 0,
                                  lab_lines_collect, out)) < 0)
        return lrc;
    if (gr->rc == 0)
        return 0;
    lab_lineout_init(&o, lab_lines_collect, out);
    if (gr->g.judged) { /* graded, then not recorded: the verdict above, then why */
        lab_lineout_put(&o, LAB_TEXT_BAD, _("the verdict was not recorded: %s"), gr->error);
        lab_lineout_put(&o, LAB_TEXT_BAD, _("fix: %s"), _(LAB_STORE_FIX));
    } else {
        lab_lineout_put(&o, gr->rc == LAB_ECANCEL ? LAB_TEXT_WARN : LAB_TEXT_BAD, "%s: %s",
                        gr->rc == LAB_ECANCEL ? _("cancelled") : _("the lab could not grade"),
                        gr->error);
    }
    lab_lineout_end(&o);
    rc = o.rc;
    lab_lineout_release(&o);
    return rc;
}

int
lab_menu_graded_layout(const lab_menu_graded *gr, lab_doc *d, int width, bool verdict)
{
    lab_lines lines = LAB_LINES_INIT;
    int rc;

    if ((rc = result_lines(gr, width, &lines)) == 0)
        rc = lab_lines_replay(&lines, verdict ? lab_lines_last_paragraph(&lines) : 0,
                              lab_menu_add_line, d);
    lab_lines_release(&lines);
    return rc;
}

static void
grade_done(lab_menu *m, lab_menu_work *w, int rc, const lab_err *err)
{
    grade_work *g = (grade_work *)w;
    lab_menu_graded *gr = calloc(1, sizeof(*gr));

    if (!gr) {
        lab_menu_status(m, _("out of memory: the result cannot be shown"));
        return;
    }
    /* the grading moves into gr; grade_free releases what is left, an empty one */
    *gr = (lab_menu_graded){ .refs = 1, .ex = g->ex, .rc = rc, .g = g->g };
    lab_grading_init(&g->g);
    snprintf(gr->file, sizeof(gr->file), "%s", g->file);
    snprintf(gr->error, sizeof(gr->error), "%s", rc < 0 ? err->msg : "");
    if (rc == 0 || gr->g.judged)
        lab_menu_status(m, "%s: %s%s", lab_verdict_describe(gr->g.result.verdict)->name,
                        gr->g.result.message, rc == 0 ? "" : _(" (not recorded)"));
    lab_menu_exercise_graded(m, gr);
    if ((rc == 0 || gr->g.judged) && !(m->watch_ex == g->ex))
        lab_menu_open_result(m, gr);
    lab_menu_graded_put(gr);
}

static void
grade_free(lab_menu_work *w)
{
    grade_work *g = (grade_work *)w;

    lab_grading_release(&g->g);
    free(g);
}

int
lab_menu_grade_start(lab_menu *m, const lab_exercise *ex, const char *file)
{
    grade_work *g = calloc(1, sizeof(*g));

    if (!g)
        return LAB_ENOMEM;
    g->base = (lab_menu_work){
        .verb = N_("grading"), .run = grade_run, .done = grade_done, .free = grade_free
    };
    snprintf(g->base.subject, sizeof(g->base.subject), "%s", ex->id);
    g->ex = ex;
    snprintf(g->file, sizeof(g->file), "%s", file);
    lab_grading_init(&g->g);
    g->req.ex = ex;
    g->req.file = g->file;
    g->req.record = true;
    g->req.on_stage = on_stage;
    g->req.arg = &g->base;
    g->req.cancel = &g->base.cancel;
    return lab_menu_job_run(m, &g->base);
}
