/*
 * predict.c - the questions asked before a demo and their judgement by the
 * demo's report (see predict.h).
 */
#include "lab/instruments/predict.h"
#include "lab/util/i18n.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define DEFAULT_SPREAD 0.1 /* "about the same" when a question gives no tolerance */
/* How a decision on modelled times starts, whatever the language it was made in: the English
 * words, or the translation's up to the GPU's name */
#define MODELLED N_("modelled for an %s, not measured: ")

int
lab_predict_questions(lab *l, const char *chapter, lab_questions *out, lab_err *err)
{
    lab_buf path = LAB_BUF_INIT;
    int rc;

    lab_buf_printf(&path, "%s/exercises/%s/questions.ini", lab_datadir(l), chapter);
    if ((rc = lab_questions_load(path.buf, out, err)) == 0)
        rc = lab_questions_check(out, chapter, lab_catalog_of(l), err);
    if (rc == 0) /* a translation that is not current leaves the questions English */
        rc = lab_questions_translate(out, lab_language(l), NULL, err);
    if (rc == 0)
        rc = lab_questions_fill(out, lab_catalog_of(l), err);
    lab_buf_release(&path);
    return rc;
}

bool
lab_question_before_demo(const lab_question *q, const char *chapter)
{
    if (q->measure)
        return !strncmp(q->measure, "demo ", 5) && !strcmp(q->measure + 5, chapter);
    return !q->exercise;
}

int
lab_question_check_answer(const lab_question *q, const char *answer, lab_err *err)
{
    char *end;

    if (q->kind == LAB_QUESTION_NUMBER) {
        strtod(answer, &end);
        if (!*answer || *end)
            return lab_err_set(err, LAB_EINVAL, _("'%s' is not a number"), answer);
        return 0;
    }
    if (lab_question_choice_index(q, answer) >= 0)
        return 0;
    return lab_err_set(err, LAB_EINVAL, _("'%s' is not one of the choices"), answer);
}

static bool
is_time_unit(const char *unit)
{
    static const char *const units[] = { "s", "ms", "us", "ns" };

    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
        if (!strcmp(unit, units[i]))
            return true;
    return false;
}

/* The row of s labelled choice, or -1. */
static long
row_of(const lab_demo_section *s, const char *choice)
{
    char label[128];

    for (size_t r = 0; r < s->nrows; r++)
        if (lab_demo_row_label(s, r, label, sizeof(label)) && !strcasecmp(label, choice))
            return (long)r;
    return -1;
}

/* The charted section whose labels match most choices (at least two), or NULL. */
static const lab_demo_section *
deciding_section(const lab_question *q, const lab_demo_report *r)
{
    const lab_demo_section *best = NULL;
    size_t most = 1;

    for (size_t i = 0; i < r->nsections; i++) {
        size_t n = 0;
        for (size_t c = 0; c < q->nchoices; c++)
            n += row_of(&r->sections[i], q->choices[c]) >= 0;
        if (n > most) {
            most = n;
            best = &r->sections[i];
        }
    }
    return best;
}

/* The margin by which a modelled winner must lead the next choice: twice the model's median
 * error (a plain 20 % where its error was not measured). */
static double
model_margin(const lab_demo_report *r)
{
    return r->model_error > 0 ? 2 * r->model_error : 0.2;
}

static int
judge_measured(const lab_question *q, const char *answer, const lab_demo_report *r,
               lab_buf *measured, lab_err *err)
{
    const lab_demo_section *s;
    const char *winner = NULL, *next = NULL, *other = NULL, *unit;
    double lo = INFINITY, hi = -INFINITY, best = 0, second = 0;
    size_t others = 0, values = 0;
    bool lower, modelled;

    if (q->kind != LAB_QUESTION_CHOICE) {
        lab_buf_adds(measured, _("a number the demo's tables do not give: see them above"));
        return lab_err_set(err, LAB_ENOSYS, "'%s': a number the demo does not report", q->id);
    }
    if (!r || strcmp(r->status, "ok")) {
        char why[512];
        lab_buf_printf(
            measured, _("not measured here (%s): it is decided when the demo runs on a GPU"),
            r && *r->reason ? lab_fmtmsg_show(&r->reason_msg, r->reason, why, sizeof(why))
                            : _("the demo did not run"));
        return lab_err_set(err, LAB_ENOSYS, "the demo measured nothing");
    }
    if (!(s = deciding_section(q, r))) {
        lab_buf_adds(measured, _("the demo's report has no rows for these choices"));
        return lab_err_set(err, LAB_ENOSYS, "no rows for the choices of '%s'", q->id);
    }
    modelled = s->modelled || lab_demo_is_modelled(r);
    unit = s->columns[s->chart.value].unit;
    lower = is_time_unit(unit);
    for (size_t c = 0; c < q->nchoices; c++) {
        long row = row_of(s, q->choices[c]);
        const lab_demo_cell *v = row >= 0 ? lab_demo_cell_at(s, (size_t)row, s->chart.value) : NULL;
        if (row < 0) {
            others++;
            other = q->choices[c];
            continue;
        }
        if (v->kind != LAB_DEMO_CELL_NUMBER)
            continue;
        values++;
        lo = v->num < lo ? v->num : lo;
        hi = v->num > hi ? v->num : hi;
        if (!winner || (lower ? v->num < best : v->num > best)) {
            next = winner;
            second = best;
            winner = q->choices[c];
            best = v->num;
        } else if (!next || (lower ? v->num < second : v->num > second)) {
            next = q->choices[c];
            second = v->num;
        }
    }
    if (values < 2) {
        lab_buf_adds(measured, _("the demo measured fewer than two of the choices"));
        return lab_err_set(err, LAB_ENOSYS, "fewer than two values for '%s'", q->id);
    }
    if (modelled) /* a modelled decision says so, wherever it is shown */
        lab_buf_printf(measured, _(MODELLED), r->model_gpu);
    /* TRANSLATORS: the deciding column's name, the choice, its value and unit, the spread */
    lab_buf_printf(measured,
                   lower ? _("fastest %s: %s at %.4g %s, spread %.0f %%")
                         : _("highest %s: %s at %.4g %s, spread %.0f %%"),
                   _(s->columns[s->chart.value].name), lab_question_answer_text(q, winner), best,
                   unit, lo > 0 ? 100 * (hi - lo) / lo : 0.0);
    if (others == 1 && lo > 0 &&
        (hi - lo) / lo <= (q->tolerance > 0 ? q->tolerance : DEFAULT_SPREAD)) {
        winner = other;
    } else if (modelled && fabs(second - best) <= model_margin(r) * fmin(best, second)) {
        /* the model cannot rank kernels closer than its own error: a GPU decides */
        if (r->model_error > 0)
            lab_buf_printf(measured,
                           _("; %s at %.4g %s is within twice the model's median error "
                             "(%.0f %%)"),
                           lab_question_answer_text(q, next), second, unit, 100 * r->model_error);
        else
            lab_buf_printf(measured,
                           _("; %s at %.4g %s is within %.0f %% (the model's error on "
                             "this GPU is not measured)"),
                           lab_question_answer_text(q, next), second, unit, 100 * model_margin(r));
        lab_buf_adds(measured, _(", so the model cannot tell them apart: it is decided when the "
                                 "demo runs on a GPU"));
        return lab_err_set(err, LAB_ENOSYS, "the model cannot tell %s from %s", winner, next);
    }
    lab_buf_printf(measured, _(", so the answer here is: %s"), lab_question_answer_text(q, winner));
    return !strcasecmp(answer, winner);
}

int
lab_predict_judge_pending(lab_store *st, const lab_questions *qs, const char *chapter,
                          const lab_demo_report *r, lab_err *err)
{
    for (size_t i = 0; i < qs->n; i++) {
        const lab_question *q = &qs->v[i];
        lab_buf measured = LAB_BUF_INIT;
        lab_err why = LAB_ERR_INIT;
        lab_prediction p;
        int found, held, rc = 0;
        if (!lab_question_before_demo(q, chapter))
            continue;
        if ((found = lab_store_prediction(st, chapter, q->id, &p, err)) < 0)
            return found;
        if (!found || p.held >= 0) /* not answered, or decided already */
            continue;
        held = lab_question_judge_demo(q, p.answer, r, &measured, &why);
        p.held = held >= 0 ? held : -1;
        p.measured = measured.buf;
        if (held >= 0 || held == LAB_ENOSYS)
            rc = lab_store_judge_prediction(st, &p, err);
        lab_buf_release(&measured);
        if (rc < 0)
            return rc;
    }
    return 0;
}

int
lab_question_judge_demo(const lab_question *q, const char *answer, const lab_demo_report *r,
                        lab_buf *measured, lab_err *err)
{
    int held;

    if (strcmp(q->answer, "measured")) {
        if ((held = lab_question_judge(q, answer, err)) >= 0)
            lab_buf_printf(measured, _("the answer is %s"), lab_question_answer_text(q, q->answer));
        return held;
    }
    return judge_measured(q, answer, r, measured, err);
}

bool
lab_prediction_is_final(const lab_question *q, const char *chapter, const lab_prediction *p)
{
    if (p->held >= 0 || (p->measured && *p->measured))
        return true;
    /* undecided and no run has looked at it: only a question the demo answers kept its
     * explanation back (the others printed it with the answer) */
    return strcmp(q->answer, "measured") || !lab_question_before_demo(q, chapter);
}

bool
lab_prediction_is_modelled(const lab_prediction *p)
{
    const char *words[2] = { MODELLED, _(MODELLED) };

    for (size_t i = 0; p->measured && i < ARRAY_SIZE(words); i++) {
        const char *gpu = strstr(words[i], "%s");
        size_t n = gpu ? (size_t)(gpu - words[i]) : strlen(words[i]);
        if (n && !strncmp(p->measured, words[i], n))
            return true;
    }
    return false;
}

const char *
lab_prediction_state(const lab_prediction *p)
{
    static const char *const words[] = { N_("not decided yet"), N_("not this time"),
                                         N_("your prediction held") };

    return _(words[p->held < 0 ? 0 : p->held ? 2 : 1]);
}
