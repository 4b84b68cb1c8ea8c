/*
 * demo.c - a chapter's demo in the menu, with "predict before you run".
 *
 * `d` (home, chapter text, exercise view) -> lab_menu_demo_start: the
 * chapter's questions asked before its demo (lab_question_before_demo) that
 * the learner has not answered yet come one by one on the predict screen (a
 * choice from a list, or a number typed); each answer goes into the store at
 * once.  Then the demo view opens and the demo runs as work (job.c,
 * lab_demo_run_chapter; `c` cancels it, its children killed).  When it ends,
 * the answers still undecided are judged by its report
 * (lab_question_judge_demo) and the view shows the report laid out by
 * lab/report/demo.h (tables, bar charts, heat maps; the same layout as
 * `cudalab demo`), then each prediction: the answer, whether it held, what
 * was measured, and the explanation.
 */
#include "lab/menu/menu.h"
#include "lab/util/i18n.h"
#include "lab/report/demo.h"
#include "lab/instruments/predict.h"

#include <curses.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const lab_chapter *
lab_menu_chapter_of(lab_menu *m, const lab_exercise *ex)
{
    const lab_catalog *cat = lab_catalog_of(m->lab);

    for (size_t i = 0; i < lab_catalog_chapter_count(cat); i++)
        if (!strcmp(lab_catalog_chapter(cat, i)->id, ex->chapter))
            return lab_catalog_chapter(cat, i);
    return NULL;
}

/* The chapter's questions; false (nothing to ask) when it has none or they do not load. */
static bool
load_questions(lab_menu *m, const lab_chapter *ch, lab_questions *qs)
{
    lab_err err = LAB_ERR_INIT;
    int rc = lab_predict_questions(m->lab, ch->id, qs, &err);

    if (rc < 0 && rc != LAB_ENOENT)
        lab_menu_status(m, "%s", err.msg);
    return rc == 0;
}

void
lab_menu_prediction_score(lab_menu *m, const lab_chapter *ch, char *buf, size_t size)
{
    lab_err err = LAB_ERR_INIT;
    int right, judged;

    buf[0] = '\0';
    if (lab_store_prediction_score(m->store, ch->id, &right, &judged, &err) == 0 && judged)
        snprintf(buf, size, _("predictions right: %d of %d"), right, judged);
}

/* --- the demo view ---------------------------------------------------------------- */

typedef struct demo_state {
    lab_menu_viewjob vj; /* key: the chapter; result: a lab_demo_run */
    const lab_chapter *ch;
} demo_state;

static void
demo_run_free(void *r)
{
    lab_demo_run_release(r);
    free(r);
}

static void
add_predictions(lab_menu *m, lab_doc *d, const lab_chapter *ch, int width)
{
    lab_questions qs = LAB_QUESTIONS_INIT;
    lab_err err = LAB_ERR_INIT;
    lab_buf line = LAB_BUF_INIT;
    bool any = false;

    if (!load_questions(m, ch, &qs))
        return;
    for (size_t i = 0; i < qs.n; i++) {
        const lab_question *q = &qs.v[i];
        lab_prediction p;
        if (!lab_question_before_demo(q, ch->id) ||
            lab_store_prediction(m->store, ch->id, q->id, &p, &err) != 1)
            continue;
        if (!any) {
            lab_doc_add(d, LAB_STYLE_TEXT, "");
            lab_doc_add(d, LAB_STYLE_HEADING, _("Your predictions"));
            any = true;
        }
        lab_doc_add(d, LAB_STYLE_TEXT, "");
        lab_doc_markdown(d, lab_question_prompt(q), strlen(lab_question_prompt(q)), width);
        lab_buf_reset(&line);
        lab_buf_printf(&line, _("  you said: %s  -> %s"), lab_question_answer_text(q, p.answer),
                       lab_prediction_state(&p));
        lab_doc_add_wrapped(d,
                            p.held == 1   ? LAB_STYLE_GOOD
                            : p.held == 0 ? LAB_STYLE_BAD
                                          : LAB_STYLE_WARN,
                            line.buf, width, "    ");
        lab_buf_reset(&line);
        /* a question with an answer of its own was not measured: it just says the answer; a
         * modelled one says so itself */
        lab_buf_printf(&line,
                       strcmp(q->answer, "measured") || lab_prediction_is_modelled(&p)
                           ? "  %s"
                           : _("  measured: %s"),
                       p.measured);
        if (*p.measured)
            lab_doc_add_wrapped(d, LAB_STYLE_TEXT, line.buf, width, "    ");
        lab_doc_markdown(d, lab_question_explain(q), strlen(lab_question_explain(q)), width);
    }
    lab_buf_release(&line);
    lab_questions_release(&qs);
}

static int
demo_build(lab_menu *m, lab_menu_view *v, int width)
{
    demo_state *s = v->state;
    const lab_demo_run *run = s->vj.result; /* NULL while it runs, or when it could not start */
    const lab_demo_layout_opts opts = { .width = width > 20 ? width - 2 : 78, .shade_chars = true };

    if (s->vj.running) {
        lab_doc_addf(&v->doc, LAB_STYLE_HEADING, _("The %s demo is running"), s->ch->local_title);
        lab_doc_add(&v->doc, LAB_STYLE_DIM,
                    _("It compiles the chapter's solutions, then runs the demo driver; the line "
                      "below shows how long. c cancels it."));
    } else if (s->vj.rc < 0) {
        lab_doc_addf(&v->doc, s->vj.rc == LAB_ECANCEL ? LAB_STYLE_WARN : LAB_STYLE_BAD,
                     "demo %s: %s", s->ch->id, s->vj.error);
        if (run && run->errout.len)
            lab_doc_add_text(&v->doc, LAB_STYLE_TEXT, run->errout.buf);
        lab_doc_add(&v->doc, LAB_STYLE_DIM, _("d runs it again"));
    } else if (run && run->has_report) {
        lab_demo_layout(&run->report, &opts, lab_menu_add_line, &v->doc);
    }
    if (run && run->steps.len)
        lab_doc_add_text(&v->doc, LAB_STYLE_TEXT, run->steps.buf);
    if (!s->vj.running)
        add_predictions(m, &v->doc, s->ch, width);
    return 0;
}

static int
key_demo_again(lab_menu *m, lab_menu_view *v)
{
    demo_state *s = v->state;

    if (!s->vj.running)
        lab_menu_demo_start(m, s->ch);
    return LAB_MENU_REDRAW;
}

static const lab_menu_key demo_keys[] = {
    { 'c', "c", N_("cancel the demo"), lab_menu_viewjob_cancel_key, NULL },
    { 'd', "d", N_("run the demo again"), key_demo_again, NULL },
};

const lab_menu_screen lab_menu_demo = {
    .name = "demo",
    .build = demo_build,
    .keys = demo_keys,
    .nkeys = ARRAY_SIZE(demo_keys),
    .release = lab_menu_viewjob_free,
};

/* --- the demo as work ----------------------------------------------------------------- */

typedef struct demo_work {
    lab_menu_viewwork base; /* result: a lab_demo_run */
    const lab_chapter *ch;
} demo_work;

static int
demo_work_run(lab_menu_work *w, lab *l, lab_err *err)
{
    demo_work *d = (demo_work *)w;

    lab_menu_work_stage(w, _("compiling the solutions and running the demo driver"));
    return lab_demo_run_chapter(l, d->ch->id, &w->cancel, d->base.result, err);
}

/* Judges the chapter's undecided answers by r (NULL: the demo gave no report). */
static void
judge_pending(lab_menu *m, const lab_chapter *ch, const lab_demo_report *r)
{
    lab_questions qs = LAB_QUESTIONS_INIT;
    lab_err err = LAB_ERR_INIT;

    if (!load_questions(m, ch, &qs))
        return;
    if (lab_predict_judge_pending(m->store, &qs, ch->id, r, &err) < 0)
        lab_menu_status(m, "%s", err.msg);
    lab_questions_release(&qs);
}

static void
demo_work_done(lab_menu *m, lab_menu_work *w, int rc, const lab_err *err)
{
    demo_work *d = (demo_work *)w;
    const lab_demo_run *run = d->base.result;

    judge_pending(m, d->ch, run->has_report ? &run->report : NULL);
    if (rc == 0 && !strcmp(run->report.status, "ok")) {
        lab_menu_status(m, _("demo %s: done"), d->ch->id);
    } else if (rc == 0) {
        char why[512];
        lab_menu_status(
            m, _("demo %s: %s"), d->ch->id,
            lab_fmtmsg_show(&run->report.reason_msg, run->report.reason, why, sizeof(why)));
    }
    lab_menu_viewwork_done(m, w, rc, err); /* the view takes the report */
    lab_menu_stale_all(m);                 /* the home screen's score */
}

static int
run_demo(lab_menu *m, const lab_chapter *ch)
{
    demo_state *s = calloc(1, sizeof(*s));
    demo_work *d = calloc(1, sizeof(*d));
    lab_demo_run *run = malloc(sizeof(*run));
    char title[256];

    if (!s || !d || !run) {
        free(s);
        free(d);
        free(run);
        return LAB_ENOMEM;
    }
    lab_demo_run_init(run);
    s->ch = d->ch = ch;
    s->vj.key = ch;
    d->base = (lab_menu_viewwork){
        .base = { .verb = N_("demo"), .run = demo_work_run, .done = demo_work_done },
        .result = run,
        .result_free = demo_run_free,
    };
    snprintf(d->base.base.subject, sizeof(d->base.base.subject), "%s", ch->id);
    snprintf(title, sizeof(title), _("demo: %s"), ch->local_title);
    if (m->depth && m->stack[m->depth - 1]->screen == &lab_menu_demo)
        lab_menu_pop(m); /* run again: one view */
    return lab_menu_open_job(m, &lab_menu_demo, s, title, &d->base);
}

/* --- predict before you run -------------------------------------------------------- */

typedef struct predict_state {
    const lab_chapter *ch;
    lab_questions qs;
    size_t *ask; /* indexes into qs of the questions to ask */
    size_t nask;
    size_t at;
} predict_state;

static void
predict_release(void *p)
{
    predict_state *s = p;

    if (s) {
        lab_questions_release(&s->qs);
        free(s->ask);
    }
    free(s);
}

static int
predict_build(lab_menu *m, lab_menu_view *v, int width)
{
    predict_state *s = v->state;
    const lab_question *q = &s->qs.v[s->ask[s->at]];

    lab_doc_addf(&v->doc, LAB_STYLE_HEADING, _("Predict before you run: question %zu of %zu"),
                 s->at + 1, s->nask);
    if (!s->ch->demo_sim && !(m->device && m->device->present) && !strcmp(q->answer, "measured"))
        lab_doc_add_wrapped(&v->doc, LAB_STYLE_WARN,
                            _("No GPU here: the demo runs on the simulator and models the times "
                              "for an H100. A modelled answer decides this one only where the "
                              "model can tell the choices apart (it says so); otherwise the demo "
                              "decides it when it runs on a GPU."),
                            width, "");
    lab_doc_add(&v->doc, LAB_STYLE_TEXT, "");
    lab_doc_markdown(&v->doc, lab_question_prompt(q), strlen(lab_question_prompt(q)), width);
    lab_doc_add(&v->doc, LAB_STYLE_TEXT, "");
    if (q->kind == LAB_QUESTION_CHOICE) {
        for (size_t i = 0; i < q->nchoices; i++) {
            lab_menu_add_item(v, q->choices[i], false);
            lab_doc_addf(&v->doc, LAB_STYLE_TEXT, "  %s", lab_question_choice(q, i));
        }
        lab_doc_add(&v->doc, LAB_STYLE_TEXT, "");
        lab_doc_add(&v->doc, LAB_STYLE_DIM, _("Enter answers   s skip   q back (no demo)"));
    } else {
        lab_doc_add(&v->doc, LAB_STYLE_DIM, _("Enter: type a number   s skip   q back (no demo)"));
    }
    lab_doc_add(&v->doc, LAB_STYLE_DIM,
                _("After the demo you see what was measured and whether your prediction held."));
    return 0;
}

static int
predict_next(lab_menu *m, lab_menu_view *v)
{
    predict_state *s = v->state;
    const lab_chapter *ch = s->ch;

    if (++s->at < s->nask) {
        v->sel = 0;
        v->top = 0;
        v->stale = true;
        return LAB_MENU_REDRAW;
    }
    lab_menu_pop(m); /* frees s and v */
    run_demo(m, ch);
    return LAB_MENU_REDRAW;
}

static int
key_answer(lab_menu *m, lab_menu_view *v)
{
    predict_state *s = v->state;
    const lab_question *q = &s->qs.v[s->ask[s->at]];
    lab_prediction p = { .chapter = s->ch->id, .question = q->id, .held = -1 };
    lab_err err = LAB_ERR_INIT;
    char typed[64];

    if (q->kind == LAB_QUESTION_CHOICE) {
        if (!v->nitems)
            return 0;
        p.answer = v->items[v->sel].ptr;
    } else {
        if (!lab_menu_prompt(m, _("your answer (a number): "), typed, sizeof(typed)))
            return LAB_MENU_REDRAW;
        if (lab_question_check_answer(q, typed, &err) < 0) {
            lab_menu_status(m, "%s", err.msg);
            return LAB_MENU_REDRAW;
        }
        p.answer = typed;
    }
    p.time = (int64_t)time(NULL);
    if (lab_store_add_prediction(m->store, &p, &err) < 0) {
        lab_menu_status(m, "%s", err.msg);
        return LAB_MENU_REDRAW;
    }
    lab_menu_status(m, _("your prediction: %s"), lab_question_answer_text(q, p.answer));
    return predict_next(m, v);
}

static int
key_skip(lab_menu *m, lab_menu_view *v)
{
    lab_menu_status(m, _("skipped: asked again next time"));
    return predict_next(m, v);
}

static const lab_menu_key predict_keys[] = {
    { '\n', "Enter", N_("answer with the selected choice (or type a number)"), key_answer, NULL },
    { KEY_ENTER, NULL, NULL, key_answer, NULL },
    { 's', "s", N_("skip this question (asked again next time)"), key_skip, NULL },
};

const lab_menu_screen lab_menu_predict = {
    .name = "predict",
    .build = predict_build,
    .keys = predict_keys,
    .nkeys = ARRAY_SIZE(predict_keys),
    .release = predict_release,
};

int
lab_menu_demo_start(lab_menu *m, const lab_chapter *ch)
{
    predict_state *s;
    lab_err err = LAB_ERR_INIT;

    if (!ch->demo) {
        lab_menu_status(m, _("the %s chapter has no demo"), ch->id);
        return LAB_ENOENT;
    }
    if (!lab_menu_job_idle(m))
        return LAB_EINVAL;
    if (!(s = calloc(1, sizeof(*s))))
        return LAB_ENOMEM;
    s->ch = ch;
    if (load_questions(m, ch, &s->qs) && !(s->ask = calloc(s->qs.n ? s->qs.n : 1, sizeof(*s->ask))))
        s->qs.n = 0;
    for (size_t i = 0; i < s->qs.n; i++) {
        lab_prediction p;
        if (lab_question_before_demo(&s->qs.v[i], ch->id) &&
            lab_store_prediction(m->store, ch->id, s->qs.v[i].id, &p, &err) == 0)
            s->ask[s->nask++] = i;
    }
    if (!s->nask) {
        predict_release(s);
        return run_demo(m, ch);
    }
    return lab_menu_push(m, &lab_menu_predict, s, _("predict before you run"));
}
