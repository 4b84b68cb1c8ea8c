/*
 * pages.c - the read-only screens: a chapter's text (Markdown from docs/),
 * the reference solution (highlighted code), the history chart of an
 * exercise (time per attempt as bars) and a grading's result (laid out by
 * lab/report/grading.h).  Each is a build function; the pager in menu.c scrolls and
 * searches them.
 */
#include "lab/menu/menu.h"
#include "lab/util/i18n.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- chapter text --- */

static int
chapter_build(lab_menu *m, lab_menu_view *v, int width)
{
    const lab_chapter *ch = v->state;
    char score[64];

    lab_menu_prediction_score(m, ch, score, sizeof(score));
    if (ch->demo)
        lab_doc_addf(&v->doc, LAB_STYLE_DIM, _("d runs the chapter's demo%s%s"), *score ? "; " : "",
                     score);
    if (!ch->local_text)
        return lab_doc_addf(&v->doc, LAB_STYLE_DIM, _("%s has no chapter text yet"),
                            ch->local_title);
    if (ch->translation_note)
        lab_doc_addf(&v->doc, LAB_STYLE_DIM, "(%s)", ch->translation_note);
    return lab_menu_course_text(m, &v->doc, ch->local_text, width);
}

static int
chapter_demo(lab_menu *m, lab_menu_view *v)
{
    lab_menu_demo_start(m, v->state);
    return LAB_MENU_REDRAW;
}

static const lab_menu_key chapter_keys[] = {
    { 'd', "d", N_("run the chapter's demo (asks your predictions first)"), chapter_demo, NULL },
};

const lab_menu_screen lab_menu_chapter = {
    .name = "chapter",
    .build = chapter_build,
    .keys = chapter_keys,
    .nkeys = ARRAY_SIZE(chapter_keys),
};

int
lab_menu_course_text(lab_menu *m, lab_doc *d, const char *path, int width)
{
    lab_buf text = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    int rc;

    if ((rc = lab_catalog_read_text(lab_catalog_of(m->lab), path, &text, &err)) < 0)
        rc = rc == LAB_ENOMEM ? rc : lab_doc_add(d, LAB_STYLE_BAD, err.msg);
    else
        rc = lab_doc_markdown(d, text.buf, text.len, width);
    lab_buf_release(&text);
    return rc;
}

int
lab_menu_open_chapter(lab_menu *m, const lab_chapter *ch)
{
    return lab_menu_push(m, &lab_menu_chapter, (void *)ch, ch->local_title);
}

/* --- reference solution --- */

static int
solution_build(lab_menu *m, lab_menu_view *v, int width)
{
    const lab_exercise *ex = v->state;

    (void)m;
    lab_doc_addf(&v->doc, LAB_STYLE_HEADING, _("Reference solution of %s"), ex->id);
    lab_doc_add(&v->doc, LAB_STYLE_TEXT, "");
    return lab_doc_file(&v->doc, ex->solution, true, width);
}

const lab_menu_screen lab_menu_solution = { .name = "solution", .build = solution_build };

/* --- history chart --- */

typedef struct chart {
    lab_doc *doc;
    int n;
    double max_ns;
    int bar_width;
    bool measure; /* first pass: find the longest time */
} chart;

/* An attempt's line in its verdict's style (the verdict table's, lab/grade/policy.h). */
static lab_style
verdict_style(const char *verdict)
{
    lab_verdict v;

    if (lab_verdict_parse(verdict, &v) < 0)
        return LAB_STYLE_TEXT;
    return lab_menu_style(lab_text_verdict_style(v));
}

static int
chart_row(const lab_attempt *a, void *arg)
{
    chart *c = arg;
    lab_buf line = LAB_BUF_INIT;
    int len;

    c->n++;
    if (c->measure) {
        if (a->median_ns > c->max_ns)
            c->max_ns = a->median_ns;
        return 0;
    }
    lab_buf_printf(&line, "  %3d  %-14s ", c->n, a->verdict);
    if (a->median_ns > 0) {
        len = (int)(c->bar_width * a->median_ns / c->max_ns + 0.5);
        lab_buf_printf(&line, "%9.2f us  ", a->median_ns / 1e3);
        for (int i = 0; i < (len > 0 ? len : 1); i++)
            lab_buf_addch(&line, '#');
    } else {
        lab_buf_adds(&line, _("        -    (not timed)"));
    }
    lab_doc_add(c->doc, verdict_style(a->verdict), line.buf);
    lab_buf_release(&line);
    return 0;
}

static int
history_build(lab_menu *m, lab_menu_view *v, int width)
{
    const lab_exercise *ex = v->state;
    chart c = { .doc = &v->doc, .measure = true };
    lab_err err = LAB_ERR_INIT;

    lab_doc_addf(&v->doc, LAB_STYLE_HEADING, _("Attempts at %s: the kernel's median time"), ex->id);
    lab_doc_add(&v->doc, LAB_STYLE_DIM, _("  (shorter bars are faster; oldest first)"));
    lab_doc_add(&v->doc, LAB_STYLE_TEXT, "");
    if (lab_store_history(m->store, ex->id, chart_row, &c, &err) < 0) {
        lab_doc_add(&v->doc, LAB_STYLE_BAD, err.msg);
        return 0;
    }
    if (!c.n) {
        lab_doc_add(&v->doc, LAB_STYLE_TEXT, _("  no attempts yet: g grades your file"));
        return 0;
    }
    c.bar_width = width > 50 ? width - 38 : 10;
    c.measure = false;
    c.n = 0;
    return lab_store_history(m->store, ex->id, chart_row, &c, &err);
}

const lab_menu_screen lab_menu_history = { .name = "history", .build = history_build };

/* --- a grading's result --- */

static void
result_release(void *gr)
{
    lab_menu_graded_put(gr);
}

static int
result_build(lab_menu *m, lab_menu_view *v, int width)
{
    (void)m;
    lab_menu_add_key_line(&v->doc, &lab_menu_result, width);
    lab_doc_add(&v->doc, LAB_STYLE_TEXT, "");
    return lab_menu_graded_layout(v->state, &v->doc, width, false);
}

static int
result_grade(lab_menu *m, lab_menu_view *v)
{
    return lab_menu_grade_exercise(m, lab_menu_graded_exercise(v->state));
}

static int
result_next(lab_menu *m, lab_menu_view *v)
{
    if (!lab_menu_graded_passed(v->state)) {
        lab_menu_status(m, _("Enter opens the next exercise after a PASS"));
        return LAB_MENU_REDRAW;
    }
    return lab_menu_open_next(m, lab_menu_graded_exercise(v->state));
}

static const lab_menu_key result_keys[] = {
    { '\n', "Enter", N_("after a PASS: the next exercise you have not passed"), result_next,
      N_("next exercise (after a PASS)") },
    { KEY_ENTER, NULL, NULL, result_next, NULL },
    { 'g', "g", N_("grade your file again"), result_grade, N_("grade again") },
    { 'c', "c", N_("cancel the grading"), lab_menu_job_cancel_key, N_("cancel") },
};

const lab_menu_screen lab_menu_result = {
    .name = "result",
    .build = result_build,
    .keys = result_keys,
    .nkeys = ARRAY_SIZE(result_keys),
    .release = result_release,
};

int
lab_menu_open_result(lab_menu *m, lab_menu_graded *gr)
{
    const lab_exercise *ex = lab_menu_graded_exercise(gr);
    const lab_menu_view *top = m->stack[m->depth - 1];
    char title[256];

    if (top->screen == &lab_menu_result && lab_menu_graded_exercise(top->state) == ex)
        lab_menu_pop(m); /* graded again from its result view: the new result in its place */
    snprintf(title, sizeof(title), _("result: %s"), ex->id);
    return lab_menu_push(m, &lab_menu_result, lab_menu_graded_hold(gr), title);
}
