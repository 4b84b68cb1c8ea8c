/*
 * exercise.c - the exercise screen: the task, hints revealed one at a time
 * (all after a pass), the student's file and the actions on it: edit, grade
 * (job.c), cancel, watch (inotify on the file's directory, since editors
 * save by renaming), reset to the starter, reference solution after a pass,
 * history chart, last result; Inspect (inspect.c), Profile (profile.c) and
 * the chapter's demo (demo.c).
 */
#include "lab/menu/menu.h"
#include "lab/util/i18n.h"
#include "lab/report/progress.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

typedef struct ex_state {
    const lab_exercise *ex;
    size_t hints_shown;
    bool show_hint;        /* scroll to the hint just revealed on the next build */
    lab_menu_graded *last; /* the last grading here (held), or NULL */
} ex_state;

static void
ex_release(void *p)
{
    ex_state *s = p;

    if (s)
        lab_menu_graded_put(s->last);
    free(s);
}

static bool
passed(lab_menu *m, const lab_exercise *ex)
{
    lab_progress p = { 0 };
    lab_err err = LAB_ERR_INIT;

    return lab_store_progress(m->store, ex->id, &p, &err) == 0 && p.passed;
}

static int
ex_build(lab_menu *m, lab_menu_view *v, int width)
{
    ex_state *s = v->state;
    const lab_exercise *ex = s->ex;
    lab_buf work = LAB_BUF_INIT;
    lab_progress p = { 0 };
    lab_err err = LAB_ERR_INIT;
    char st[128];
    size_t shown;

    lab_work_path(ex, &work);
    lab_store_progress(m->store, ex->id, &p, &err);
    lab_progress_text(&p, st, sizeof(st));
    lab_doc_addf(&v->doc, LAB_STYLE_HEADING, "%s  (%s)", ex->local_title, ex->id);
    if (ex->translation_note)
        lab_doc_addf(&v->doc, LAB_STYLE_DIM, "(%s)", ex->translation_note);
    lab_doc_addf(&v->doc, LAB_STYLE_TEXT, _("File: %s%s"), work.buf,
                 access(work.buf, F_OK) ? _("  (not there yet: e creates it from the starter)")
                                        : "");
    lab_doc_addf(&v->doc, p.passed ? LAB_STYLE_GOOD : LAB_STYLE_TEXT,
                 ngettext("Status: %s   (%d point)", "Status: %s   (%d points)", ex->points), st,
                 ex->points);
    lab_menu_add_key_line(&v->doc, &lab_menu_exercise, width);
    if (s->last) {
        lab_doc_add(&v->doc, LAB_STYLE_TEXT, "");
        lab_doc_add(&v->doc, LAB_STYLE_HEADING, _("Last result  (v: with the table and messages)"));
        /* the report's last paragraph: verdict, points and what to try next */
        lab_menu_graded_layout(s->last, &v->doc, width, true);
    }
    lab_doc_add(&v->doc, LAB_STYLE_TEXT, "");
    lab_menu_course_text(m, &v->doc, ex->local_task, width);
    shown = p.passed ? ex->nhints : s->hints_shown;
    for (size_t i = 0; i < shown && i < ex->nhints; i++) {
        lab_doc_add(&v->doc, LAB_STYLE_TEXT, "");
        if (s->show_hint && i + 1 == s->hints_shown) {
            v->top = v->doc.nlines;
            s->show_hint = false;
        }
        lab_doc_addf(&v->doc, LAB_STYLE_HEADING, _("Hint %zu of %zu"), i + 1, ex->nhints);
        lab_doc_markdown(&v->doc, ex->local_hints[i], strlen(ex->local_hints[i]), width);
    }
    if (shown < ex->nhints)
        lab_doc_addf(&v->doc, LAB_STYLE_DIM, _("(h: hint %zu of %zu)"), shown + 1, ex->nhints);
    lab_buf_release(&work);
    return 0;
}

static ex_state *
state_of(lab_menu_view *v)
{
    return v->state;
}

static bool
idle(lab_menu *m)
{
    return lab_menu_job_idle(m);
}

static int
key_edit(lab_menu *m, lab_menu_view *v)
{
    lab_buf work = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    bool created;

    if (!idle(m))
        return LAB_MENU_REDRAW;
    if (lab_work_start(state_of(v)->ex, &work, &created, &err) < 0 ||
        lab_menu_edit(work.buf, &err) < 0)
        lab_menu_status(m, "%s", err.msg);
    else
        lab_menu_status(m, created ? _("created %s: g grades it") : _("edited %s: g grades it"),
                        work.buf);
    lab_buf_release(&work);
    return LAB_MENU_REBUILD;
}

int
lab_menu_grade_exercise(lab_menu *m, const lab_exercise *ex)
{
    lab_buf work = LAB_BUF_INIT;

    if (!idle(m))
        return LAB_MENU_REDRAW;
    lab_work_path(ex, &work);
    if (access(work.buf, F_OK))
        lab_menu_status(m, _("%s is not there yet: e creates it from the starter"), work.buf);
    else
        lab_menu_grade_start(m, ex, work.buf);
    lab_buf_release(&work);
    return LAB_MENU_REDRAW;
}

static int
key_grade(lab_menu *m, lab_menu_view *v)
{
    return lab_menu_grade_exercise(m, state_of(v)->ex);
}

static void
watch_stop(lab_menu *m)
{
    for (int i = 0; i < m->nwatch; i++)
        inotify_rm_watch(m->inotify_fd, m->watch_wds[i]);
    m->nwatch = 0;
    m->watch_ex = NULL;
    m->watch_pending = false;
}

static int
key_watch(lab_menu *m, lab_menu_view *v)
{
    lab_buf work = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    bool created, same = m->watch_ex == state_of(v)->ex;
    char *dir;

    watch_stop(m);
    if (same) {
        lab_menu_status(m, _("watch off"));
        return LAB_MENU_REDRAW;
    }
    if (m->inotify_fd < 0) {
        lab_menu_status(m, _("watch needs inotify, which this system does not give"));
        return LAB_MENU_REDRAW;
    }
    if (lab_work_start(state_of(v)->ex, &work, &created, &err) < 0) {
        lab_menu_status(m, "%s", err.msg);
        goto out;
    }
    snprintf(m->watch_name, sizeof(m->watch_name), "%s", strrchr(work.buf, '/') + 1);
    dir = dirname(work.buf);
    /* work/ and every chapter folder in it: a save of any exercise's file grades that one */
    if (lab_menu_watch_dir(m, "") < 0) {
        lab_menu_status(m, _("cannot watch '%s'"), dir);
        goto out;
    }
    for (size_t i = 0; i < lab_catalog_chapter_count(lab_catalog_of(m->lab)); i++)
        lab_menu_watch_dir(m, lab_catalog_chapter(lab_catalog_of(m->lab), i)->id);
    m->watch_ex = state_of(v)->ex;
    lab_menu_status(m,
                    _("watch on: every save of %s, or of another exercise's file, grades it "
                      "(w: off)"),
                    m->watch_name);
out:
    lab_buf_release(&work);
    return LAB_MENU_REBUILD;
}

static int
key_hint(lab_menu *m, lab_menu_view *v)
{
    ex_state *s = state_of(v);

    if (s->hints_shown < s->ex->nhints) {
        lab_err err = LAB_ERR_INIT;
        s->hints_shown++;
        s->show_hint = true;
        /* the CLI's and the shell's `hint` go on from here (lab_store_hints_seen) */
        lab_store_set_hints_seen(m->store, s->ex->id, s->hints_shown, &err);
        lab_menu_status(m, _("hint %zu of %zu"), s->hints_shown, s->ex->nhints);
    } else {
        lab_menu_status(m, _("no more hints"));
    }
    v->stale = true;
    return LAB_MENU_REDRAW;
}

static int
key_reset(lab_menu *m, lab_menu_view *v)
{
    lab_buf work = LAB_BUF_INIT, backup = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;

    if (!idle(m) || !lab_menu_confirm(m, _("Put the starter back in your file? A backup is kept.")))
        return LAB_MENU_REDRAW;
    if (lab_work_reset(state_of(v)->ex, &work, &backup, &err) < 0)
        lab_menu_status(m, "%s", err.msg);
    else if (backup.len)
        lab_menu_status(m, _("reset to the starter; your version is in %s"), backup.buf);
    else
        lab_menu_status(m, _("created %s from the starter"), work.buf);
    lab_buf_release(&work);
    lab_buf_release(&backup);
    return LAB_MENU_REBUILD;
}

static int
key_solution(lab_menu *m, lab_menu_view *v)
{
    const lab_exercise *ex = state_of(v)->ex;

    if (!passed(m, ex)) {
        lab_menu_status(m, _("the reference solution opens after you pass"));
        return LAB_MENU_REDRAW;
    }
    lab_menu_push(m, &lab_menu_solution, (void *)ex, _("reference solution"));
    return LAB_MENU_REDRAW;
}

static int
key_history(lab_menu *m, lab_menu_view *v)
{
    lab_menu_push(m, &lab_menu_history, (void *)state_of(v)->ex, _("history"));
    return LAB_MENU_REDRAW;
}

static int
key_result(lab_menu *m, lab_menu_view *v)
{
    ex_state *s = state_of(v);

    if (!s->last)
        lab_menu_status(m, _("no result yet: g grades"));
    else
        lab_menu_open_result(m, s->last);
    return LAB_MENU_REDRAW;
}

static int
key_inspect(lab_menu *m, lab_menu_view *v)
{
    if (idle(m))
        lab_menu_inspect_start(m, state_of(v)->ex);
    return LAB_MENU_REDRAW;
}

static int
key_profile(lab_menu *m, lab_menu_view *v)
{
    if (idle(m))
        lab_menu_profile_start(m, state_of(v)->ex);
    return LAB_MENU_REDRAW;
}

static int
key_demo(lab_menu *m, lab_menu_view *v)
{
    const lab_chapter *ch = lab_menu_chapter_of(m, state_of(v)->ex);

    if (ch)
        lab_menu_demo_start(m, ch);
    return LAB_MENU_REDRAW;
}

static const lab_menu_key ex_keys[] = {
    { 'e', "e", N_("edit your file ($VISUAL, $EDITOR)"), key_edit, N_("edit") },
    { 'g', "g", N_("grade your file"), key_grade, N_("grade") },
    { 'c', "c", N_("cancel the grading"), lab_menu_job_cancel_key, N_("cancel") },
    { 'w', "w", N_("watch: grade on every save (again: off)"), key_watch, N_("watch") },
    { 'v', "v", N_("the last result, full screen"), key_result, N_("last result") },
    { 'h', "h", N_("reveal the next hint"), key_hint, N_("hint") },
    { 'r', "r", N_("reset your file to the starter (asks; keeps a backup)"), key_reset,
      N_("reset") },
    { 's', "s", N_("the reference solution (after a pass)"), key_solution, N_("solution") },
    { 't', "t", N_("history of your attempts"), key_history, N_("history") },
    { 'i', "i", N_("inspect: registers, occupancy, PTX and SASS of your kernel"), key_inspect,
      N_("inspect (PTX/SASS)") },
    { 'p', "p", N_("profile your kernel: Nsight Compute, or the simulator's counts"), key_profile,
      N_("profile") },
    { 'd', "d", N_("run the chapter's demo (asks your predictions first)"), key_demo,
      N_("the chapter's demo") },
};

const lab_menu_screen lab_menu_exercise = {
    .name = "exercise",
    .build = ex_build,
    .keys = ex_keys,
    .nkeys = ARRAY_SIZE(ex_keys),
    .release = ex_release,
};

int
lab_menu_open_exercise(lab_menu *m, const lab_exercise *ex)
{
    ex_state *s = calloc(1, sizeof(*s));

    lab_err err = LAB_ERR_INIT;

    if (!s)
        return LAB_ENOMEM;
    s->ex = ex;
    /* the hints seen before, here or with `cudalab hint`, stay revealed */
    if (lab_store_hints_seen(m->store, ex->id, &s->hints_shown, &err) < 0)
        s->hints_shown = 0;
    return lab_menu_push(m, &lab_menu_exercise, s, ex->id);
}

void
lab_menu_exercise_graded(lab_menu *m, lab_menu_graded *gr)
{
    for (int i = 0; i < m->depth; i++) {
        lab_menu_view *v = m->stack[i];
        ex_state *s = v->state;
        if (v->screen != &lab_menu_exercise || s->ex != lab_menu_graded_exercise(gr))
            continue;
        lab_menu_graded_put(s->last);
        s->last = lab_menu_graded_hold(gr);
        v->top = 0; /* the result is at the top */
    }
    lab_menu_stale_all(m);
}

void
lab_menu_follow_exercise(lab_menu *m, const lab_exercise *ex)
{
    const lab_menu_view *top = m->stack[m->depth - 1];

    if (top->screen == &lab_menu_exercise && ((const ex_state *)top->state)->ex == ex)
        return;
    /* another exercise's views give way to this one's */
    while (m->depth > 1 && (top = m->stack[m->depth - 1]) &&
           (top->screen == &lab_menu_result || top->screen == &lab_menu_exercise))
        lab_menu_pop(m);
    lab_menu_open_exercise(m, ex);
}

int
lab_menu_open_next(lab_menu *m, const lab_exercise *ex)
{
    const lab_exercise *next;
    lab_err err = LAB_ERR_INIT;
    const lab_menu_view *top;

    if (lab_work_next(lab_catalog_of(m->lab), m->store, ex, &next, &err) < 0) {
        lab_menu_status(m, "%s", err.msg);
        return LAB_MENU_REDRAW;
    }
    if (!next) {
        lab_menu_status(m, _("every exercise is passed: well done"));
        return LAB_MENU_REDRAW;
    }
    /* the views of ex give way: its result, then its exercise view */
    while (m->depth > 1 && (top = m->stack[m->depth - 1]) &&
           (top->screen == &lab_menu_result ||
            (top->screen == &lab_menu_exercise && ((const ex_state *)top->state)->ex == ex)))
        lab_menu_pop(m);
    lab_menu_open_exercise(m, next);
    lab_menu_status(m, _("next: %s"), next->id);
    return LAB_MENU_REBUILD;
}
