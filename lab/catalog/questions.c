/*
 * questions.c - the prediction questions' file (see questions.h).
 */
#include "lab/catalog/questions.h"
#include "lab/util/i18n.h"
#include "lab/catalog/translation.h"
#include "lab/util/inifile.h"
#include "lab/util/lang.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct parse {
    lab_inifile ini;
    char last[256]; /* "section\nname" of the last key: libinih repeats it for continuation lines */
    lab_questions *q;
    lab_err *err;
    int rc;
};

static int
bad(struct parse *ps, const char *fmt, const char *arg)
{
    char msg[256];

    snprintf(msg, sizeof(msg), fmt, arg);
    return ps->rc = lab_err_set(ps->err, LAB_EPARSE, "%s:%d: %s", ps->q->path, ps->ini.line, msg);
}

static lab_question *
question(struct parse *ps, const char *id)
{
    lab_question *v;

    for (size_t i = 0; i < ps->q->n; i++)
        if (!strcmp(ps->q->v[i].id, id))
            return &ps->q->v[i];
    if (!(v = realloc(ps->q->v, (ps->q->n + 1) * sizeof(*v))))
        return NULL;
    ps->q->v = v;
    v = memset(&v[ps->q->n], 0, sizeof(*v));
    v->tolerance = 0.1;
    v->line = ps->ini.line;
    if (!(v->id = strdup(id)))
        return NULL;
    ps->q->n++;
    return v;
}

static int
set_choices(struct parse *ps, lab_question *q, const char *value)
{
    const char *p = value;

    while (*p) {
        size_t len = strcspn(p, "|");
        const char *e = p + len;
        while (len && isspace((unsigned char)*p))
            p++, len--;
        while (len && isspace((unsigned char)p[len - 1]))
            len--;
        if (!len)
            return bad(ps, "an empty choice in '%s'", value);
        if (q->nchoices == LAB_QUESTION_CHOICES_MAX)
            return bad(ps, "more than 8 choices in '%s'", value);
        if (!(q->choices[q->nchoices++] = strndup(p, len)))
            return ps->rc = lab_err_set(ps->err, LAB_ENOMEM, "out of memory");
        p = *e ? e + 1 : e;
    }
    return 0;
}

static int
on_key(void *user, const char *section, const char *name, const char *value)
{
    struct parse *ps = user;
    lab_question *q;
    char **field = NULL;

    if (ps->rc < 0)
        return 0;
    if (!strcmp(section, "questions")) {
        if (strcmp(name, "version"))
            return bad(ps, "unknown key '%s' in [questions]", name), 0;
        ps->q->version = atoi(value);
        return 1;
    }
    if (strncmp(section, "question ", 9) || !section[9])
        return bad(ps, "unknown section '%s' (want [questions] or [question ID])", section), 0;
    if (!(q = question(ps, section + 9)))
        return ps->rc = lab_err_set(ps->err, LAB_ENOMEM, "out of memory"), 0;
    if (!strcmp(name, "kind")) {
        if (!strcmp(value, "choice"))
            q->kind = LAB_QUESTION_CHOICE;
        else if (!strcmp(value, "number"))
            q->kind = LAB_QUESTION_NUMBER;
        else
            return bad(ps, "kind must be choice or number, not '%s'", value), 0;
    } else if (!strcmp(name, "choices")) {
        return set_choices(ps, q, value) == 0;
    } else if (!strcmp(name, "tolerance")) {
        char *end;
        q->tolerance = strtod(value, &end);
        if (*end || q->tolerance < 0)
            return bad(ps, "tolerance must be a number >= 0, not '%s'", value), 0;
    } else if (!strcmp(name, "prompt")) {
        field = &q->prompt;
    } else if (!strcmp(name, "answer")) {
        field = &q->answer;
    } else if (!strcmp(name, "measure")) {
        field = &q->measure;
    } else if (!strcmp(name, "exercise")) {
        field = &q->exercise;
    } else if (!strcmp(name, "explain")) {
        field = &q->explain;
    } else {
        return bad(ps, "unknown key '%s'", name), 0;
    }
    if (field) {
        char key[256], *joined = NULL;
        /* an indented line continues the value (inih's multi-line values) */
        snprintf(key, sizeof(key), "%s\n%s", section, name);
        if (*field && !strcmp(key, ps->last) && asprintf(&joined, "%s %s", *field, value) < 0)
            joined = NULL, value = NULL;
        free(*field);
        *field = joined ? joined : value ? strdup(value) : NULL;
        snprintf(ps->last, sizeof(ps->last), "%s", key);
        if (!*field)
            return ps->rc = lab_err_set(ps->err, LAB_ENOMEM, "out of memory"), 0;
    }
    return 1;
}

static int
check_question(const lab_questions *qs, const lab_question *q, lab_err *err)
{
    double v;
    bool found = false;

    if (!q->prompt || !*q->prompt || !q->explain || !*q->explain || !q->answer)
        return lab_err_set(err, LAB_EPARSE, "%s:%d: question '%s' needs prompt, answer and explain",
                           qs->path, q->line, q->id);
    if (q->kind == LAB_QUESTION_CHOICE) {
        if (q->nchoices < 2)
            return lab_err_set(err, LAB_EPARSE, "%s:%d: question '%s' needs two or more choices",
                               qs->path, q->line, q->id);
        for (size_t i = 0; i < q->nchoices; i++)
            found |= !strcmp(q->choices[i], q->answer);
        if (!found && strcmp(q->answer, "measured"))
            return lab_err_set(err, LAB_EPARSE,
                               "%s:%d: question '%s': answer '%s' is not one of its choices",
                               qs->path, q->line, q->id, q->answer);
    } else if (q->nchoices ||
               (!lab_inifile_number(q->answer, &v) && strcmp(q->answer, "measured"))) {
        return lab_err_set(err, LAB_EPARSE,
                           "%s:%d: question '%s': a number question has no choices and a number "
                           "or 'measured' as its answer",
                           qs->path, q->line, q->id);
    }
    if (!strcmp(q->answer, "measured") &&
        (!q->measure || (strncmp(q->measure, "demo ", 5) && strncmp(q->measure, "grade ", 6))))
        return lab_err_set(err, LAB_EPARSE,
                           "%s:%d: question '%s': a measured answer needs 'measure = demo CHAPTER' "
                           "or 'measure = grade EXERCISE'",
                           qs->path, q->line, q->id);
    return 0;
}

int
lab_questions_load(const char *path, lab_questions *out, lab_err *err)
{
    struct parse ps = { .q = out, .err = err };
    int rc;

    memset(out, 0, sizeof(*out));
    if (!(out->path = strdup(path)))
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    if ((rc = lab_inifile_parse(path, &ps.ini, on_key, &ps, err)) < 0 && ps.rc == 0)
        goto fail;
    if (ps.rc < 0) {
        rc = ps.rc;
        goto fail;
    }
    if (rc != 0) {
        rc = lab_err_set(err, LAB_EPARSE, "%s:%d: not an INI line", path, rc);
        goto fail;
    }
    for (size_t i = 0; i < out->n; i++)
        if ((rc = check_question(out, &out->v[i], err)) < 0)
            goto fail;
    return 0;
fail:
    lab_questions_release(out);
    return rc;
}

int
lab_questions_check(const lab_questions *q, const char *chapter, const lab_catalog *cat,
                    lab_err *err)
{
    if (q->version != LAB_QUESTIONS_VERSION)
        return lab_err_set(err, LAB_EPARSE, "%s:0: needs 'version = %d' in [questions]", q->path,
                           LAB_QUESTIONS_VERSION);
    if (q->n < LAB_QUESTIONS_MIN)
        return lab_err_set(err, LAB_EPARSE,
                           "%s:0: a chapter asks at least %d questions, this has %zu", q->path,
                           LAB_QUESTIONS_MIN, q->n);
    for (size_t i = 0; i < q->n; i++) {
        const char *ex = q->v[i].exercise, *m = q->v[i].measure;
        size_t clen = strlen(chapter);
        if (ex &&
            (strncmp(ex, chapter, clen) || ex[clen] != '/' || (cat && !lab_catalog_find(cat, ex))))
            return lab_err_set(err, LAB_EPARSE, "%s:%d: question '%s': '%s' is no exercise of %s",
                               q->path, q->v[i].line, q->v[i].id, ex, chapter);
        if (cat && m && !strncmp(m, "grade ", 6) && !lab_catalog_find(cat, m + 6))
            return lab_err_set(err, LAB_EPARSE, "%s:%d: question '%s': '%s' grades no exercise",
                               q->path, q->v[i].line, q->v[i].id, m);
    }
    return 0;
}

void
lab_questions_release(lab_questions *q)
{
    for (size_t i = 0; i < q->n; i++) {
        lab_question *x = &q->v[i];
        free(x->id);
        free(x->prompt);
        for (size_t c = 0; c < x->nchoices; c++)
            free(x->choices[c]);
        free(x->answer);
        free(x->measure);
        free(x->exercise);
        free(x->explain);
        free(x->local_prompt);
        free(x->local_explain);
        for (size_t c = 0; c < LAB_QUESTION_CHOICES_MAX; c++)
            free(x->local_choices[c]);
    }
    free(q->v);
    free(q->path);
    memset(q, 0, sizeof(*q));
}

const lab_question *
lab_questions_find(const lab_questions *q, const char *id)
{
    for (size_t i = 0; i < q->n; i++)
        if (!strcmp(q->v[i].id, id))
            return &q->v[i];
    return NULL;
}

int
lab_question_judge(const lab_question *q, const char *answer, lab_err *err)
{
    double want, got;

    if (!strcmp(q->answer, "measured"))
        return lab_err_set(err, LAB_ENOSYS, "'%s' is answered by the run (%s)", q->id, q->measure);
    if (q->kind == LAB_QUESTION_CHOICE) {
        int i = lab_question_choice_index(q, answer);
        if (i >= 0)
            return !strcmp(q->choices[i], q->answer);
        return lab_err_set(err, LAB_EINVAL, _("'%s' is not one of the choices"), answer);
    }
    if (!lab_inifile_number(answer, &got))
        return lab_err_set(err, LAB_EINVAL, _("'%s' is not a number"), answer);
    want = strtod(q->answer, NULL);
    return fabs(got - want) <= q->tolerance * fabs(want) + 1e-12;
}

const char *
lab_question_prompt(const lab_question *q)
{
    return q->local_prompt ? q->local_prompt : q->prompt;
}

const char *
lab_question_explain(const lab_question *q)
{
    return q->local_explain ? q->local_explain : q->explain;
}

const char *
lab_question_choice(const lab_question *q, size_t i)
{
    return q->local_choices[i] ? q->local_choices[i] : q->choices[i];
}

const char *
lab_question_answer_text(const lab_question *q, const char *answer)
{
    int i = answer ? lab_question_choice_index(q, answer) : -1;

    return i >= 0 ? lab_question_choice(q, (size_t)i) : answer;
}

int
lab_question_choice_index(const lab_question *q, const char *answer)
{
    for (size_t i = 0; i < q->nchoices; i++)
        if (!strcasecmp(q->choices[i], answer) ||
            (q->local_choices[i] && !strcasecmp(q->local_choices[i], answer)))
            return (int)i;
    return -1;
}

/* A translated value: continuation lines joined by sep ("\n" in t's values). */
static char *
joined(const char *value, char sep)
{
    char *s = strdup(value);

    for (char *p = s; p && (p = strchr(p, '\n'));)
        *p = sep;
    return s;
}

/* Split a translated choices value into q's local_choices; false when the count differs. */
static bool
set_local_choices(lab_question *q, const char *value)
{
    char *all = joined(value, '|'), *save = NULL, *item;
    size_t n = 0;

    for (item = all ? strtok_r(all, "|", &save) : NULL; item && n < LAB_QUESTION_CHOICES_MAX;
         item = strtok_r(NULL, "|", &save)) {
        size_t len = strlen(item);
        while (len && isspace((unsigned char)item[len - 1]))
            item[--len] = '\0';
        while (isspace((unsigned char)*item))
            item++;
        q->local_choices[n++] = strdup(item);
    }
    free(all);
    if (n == q->nchoices && !item)
        return true;
    for (size_t i = 0; i < n; i++) {
        free(q->local_choices[i]);
        q->local_choices[i] = NULL;
    }
    return false;
}

static const char *const question_text_keys[] = { "prompt", "explain", "choices", NULL };

/* *text with its figures filled in, in a new malloc'ed string (text may be NULL). */
static int
fill(char **text, const lab_catalog *cat, const char *what, lab_err *err)
{
    lab_buf out = LAB_BUF_INIT;
    int rc;

    if (!*text || !lab_numbers_quoted(*text, strlen(*text)))
        return 0;
    if ((rc = lab_catalog_expand(cat, *text, strlen(*text), what, &out, err)) < 0) {
        lab_buf_release(&out);
        return rc;
    }
    free(*text);
    *text = lab_buf_detach(&out);
    return *text ? 0 : lab_err_set(err, LAB_ENOMEM, "out of memory");
}

int
lab_questions_fill(lab_questions *q, const lab_catalog *cat, lab_err *err)
{
    lab_buf what = LAB_BUF_INIT;
    int rc = 0;

    for (size_t i = 0; rc == 0 && i < q->n; i++) {
        lab_question *x = &q->v[i];

        lab_buf_reset(&what);
        if (lab_buf_printf(&what, "%s [question %s]", q->path, x->id) < 0)
            rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
        else if ((rc = fill(&x->prompt, cat, what.buf, err)) == 0 &&
                 (rc = fill(&x->explain, cat, what.buf, err)) == 0 &&
                 (rc = fill(&x->local_prompt, cat, what.buf, err)) == 0)
            rc = fill(&x->local_explain, cat, what.buf, err);
    }
    lab_buf_release(&what);
    return rc;
}

int
lab_questions_translate(lab_questions *q, const lab_lang *lang, bool *note, lab_err *err)
{
    lab_translated_ini t = LAB_TRANSLATED_INI_INIT;
    lab_translation tr = { 0 };
    int rc = 0;

    if (note)
        *note = false;
    for (size_t i = 0; lang && i < lang->n; i++) {
        if ((rc = lab_translation_check(q->path, lang->code[i], &tr, err)) < 0 ||
            tr.state != LAB_TRANSLATION_MISSING)
            break;
        free(tr.path);
        tr.path = NULL;
    }
    if (rc < 0 || !tr.path || tr.state != LAB_TRANSLATION_CURRENT) {
        if (note && tr.path && tr.state != LAB_TRANSLATION_MISSING)
            *note = true;
        goto out;
    }
    if ((rc = lab_translated_ini_read(tr.path, q->path, question_text_keys, &t, err)) < 0) {
        if (note && rc != LAB_ENOMEM)
            *note = true, rc = 0;
        goto out;
    }
    for (size_t i = 0; i < t.n; i++) {
        lab_question *x = (lab_question *)lab_questions_find(q, t.v[i].section + 9);
        if (strncmp(t.v[i].section, "question ", 9) || !x)
            continue;
        if (!strcmp(t.v[i].key, "prompt") && !x->local_prompt)
            x->local_prompt = joined(t.v[i].value, ' ');
        else if (!strcmp(t.v[i].key, "explain") && !x->local_explain)
            x->local_explain = joined(t.v[i].value, ' ');
        else if (!strcmp(t.v[i].key, "choices") && !set_local_choices(x, t.v[i].value) && note)
            *note = true;
    }
out:
    lab_translated_ini_release(&t);
    free(tr.path);
    return rc == LAB_ENOMEM ? lab_err_set(err, rc, "out of memory") : 0;
}
