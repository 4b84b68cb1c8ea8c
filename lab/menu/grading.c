/*
 * grading.c - a grading as the menu's work (job.c): lab_grade in the worker
 * with its stages on the progress line; when done, the grading laid out by
 * lab/report/grading.h (as `cudalab grade` prints it) goes into the exercise
 * view and, unless watch mode graded it, onto a result view.
 */
#include "lab/menu/menu.h"
#include "lab/report/grading.h"

#include <curses.h>
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

/* The result as lines: the grading laid out as `cudalab grade` prints it, or why there is none. */
static int
result_lines(grade_work *g, int rc, const lab_err *err, lab_lines *out)
{
    lab_lineout o;

    if (rc == 0)
        return lab_grading_layout(&g->g, g->ex, g->file, COLS > 1 ? (size_t)COLS - 1 : 0,
                                  lab_lines_collect, out);
    lab_lineout_init(&o, lab_lines_collect, out);
    lab_lineout_put(&o, rc == LAB_ECANCEL ? LAB_TEXT_WARN : LAB_TEXT_BAD, "%s: %s",
                    rc == LAB_ECANCEL ? "cancelled" : "the lab could not grade", err->msg);
    lab_lineout_end(&o);
    rc = o.rc;
    lab_lineout_release(&o);
    return rc;
}

static void
grade_done(lab_menu *m, lab_menu_work *w, int rc, const lab_err *err)
{
    grade_work *g = (grade_work *)w;
    lab_lines result = LAB_LINES_INIT;

    if (rc == 0)
        lab_menu_status(m, "%s: %s", lab_verdict_describe(g->g.result.verdict)->name,
                        g->g.result.message);
    if (result_lines(g, rc, err, &result) < 0) {
        lab_menu_status(m, "out of memory: the result cannot be shown");
    } else {
        bool passed = rc == 0 && g->g.result.verdict == LAB_VERDICT_PASS;
        lab_menu_exercise_graded(m, g->ex, &result, passed);
        if (rc == 0 && !(m->watch_ex == g->ex))
            lab_menu_open_result(m, g->ex, &result, passed);
    }
    lab_lines_release(&result);
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
        .verb = "grading", .run = grade_run, .done = grade_done, .free = grade_free
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
