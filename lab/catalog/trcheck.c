/*
 * trcheck.c - the translations of one English content file, each language in turn, against
 * the rules of translation.h (trcheck.h).  Reads files; changes nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "lab/catalog/catalog.h"
#include "lab/catalog/questions.h"
#include "lab/catalog/translation.h"
#include "lab/catalog/trcheck.h"
#include "lab/util/buf.h"

/* The keys a translation of each kind of INI file may hold. */
static const char *const title_keys[] = { "title", NULL };
static const char *const question_keys[] = { "prompt", "explain", "choices", NULL };

static const char *
base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

int
lab_trcheck_init(lab_trcheck *t, const char *datadir, lab_err *err)
{
    memset(t, 0, sizeof(*t));
    return lab_translation_languages(datadir, &t->languages, err);
}

void
lab_trcheck_release(lab_trcheck *t)
{
    lab_strvec_release(&t->languages);
    lab_strvec_release(&t->missing);
    lab_strvec_release(&t->stale);
    lab_strvec_release(&t->broken);
}

/*
 * text (len bytes) with its figures filled in; a name the catalog does not know is a broken
 * line "path:line: ...", line counted from first (the line text starts on).
 */
static int
check_figures(lab_trcheck *t, const char *text, size_t len, const char *path, int first)
{
    lab_buf out = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    int rc = 0, line;
    char *rest;

    if (!t->cat || !lab_numbers_quoted(text, len))
        return 0;
    rc = lab_catalog_expand(t->cat, text, len, "", &out, &err);
    lab_buf_release(&out);
    if (rc == LAB_ENOMEM)
        return rc;
    if (rc < 0) { /* err: ":N: message", N counted within text */
        line = (int)strtol(err.msg + 1, &rest, 10);
        rc = lab_strvec_pushf(&t->broken, "%s:%d%s", path, first + line - 1, rest);
    }
    return rc;
}

/* The figures of every prompt and explanation of a questions file (English or translated). */
static int
check_question_figures(lab_trcheck *t, const char *path, const lab_translated_ini *tr)
{
    lab_questions q = LAB_QUESTIONS_INIT;
    lab_err err = LAB_ERR_INIT;
    int rc = 0;

    if (!t->cat)
        return 0;
    if (tr) {
        for (size_t i = 0; rc == 0 && i < tr->n; i++)
            rc = check_figures(t, tr->v[i].value, strlen(tr->v[i].value), path, tr->v[i].line);
        return rc;
    }
    if (lab_questions_load(path, &q, &err) < 0)
        return err.code == LAB_ENOMEM ? LAB_ENOMEM : 0; /* the file's own check says */
    for (size_t i = 0; rc == 0 && i < q.n; i++)
        if ((rc = check_figures(t, q.v[i].prompt, strlen(q.v[i].prompt), path, q.v[i].line)) == 0)
            rc = check_figures(t, q.v[i].explain, strlen(q.v[i].explain), path, q.v[i].line);
    lab_questions_release(&q);
    return rc;
}

/* A translated question's choices: as many as the English question's, in the same order. */
static int
check_choices(lab_trcheck *t, const char *english, const lab_translated_ini *tr, const char *path)
{
    lab_questions q = LAB_QUESTIONS_INIT;
    lab_err err = LAB_ERR_INIT;
    int rc = 0;

    if (lab_questions_load(english, &q, &err) < 0)
        return err.code == LAB_ENOMEM ? LAB_ENOMEM : 0; /* the English file's own check says */
    for (size_t i = 0; rc == 0 && i < tr->n; i++) {
        const lab_translated_key *k = &tr->v[i];
        const lab_question *x;
        size_t n = 1;

        if (strcmp(k->key, "choices") || strncmp(k->section, "question ", 9) ||
            !(x = lab_questions_find(&q, k->section + 9)))
            continue;
        for (const char *p = k->value; *p; p++)
            n += *p == '|' || *p == '\n';
        if (n != x->nchoices)
            rc = lab_strvec_pushf(&t->broken,
                                  "%s:%d: [%s] has %zu choices where the English question has %zu "
                                  "(the same number, in the same order)",
                                  path, k->line, k->section, n, x->nchoices);
    }
    lab_questions_release(&q);
    return rc;
}

static int
check_ini(lab_trcheck *t, const char *english, const char *path, lab_trcheck_kind kind)
{
    lab_translated_ini tr = LAB_TRANSLATED_INI_INIT;
    lab_err err = LAB_ERR_INIT;
    int rc;

    rc = lab_translated_ini_read(
        path, english, kind == LAB_TRCHECK_QUESTIONS ? question_keys : title_keys, &tr, &err);
    if (rc == LAB_ENOMEM)
        return rc;
    if (rc < 0)
        return lab_strvec_push(&t->broken, err.msg);
    if (kind == LAB_TRCHECK_QUESTIONS && (rc = check_choices(t, english, &tr, path)) == 0)
        rc = check_question_figures(t, path, &tr);
    lab_translated_ini_release(&tr);
    return rc;
}

static int
check_markdown(lab_trcheck *t, const char *english, const char *path, lab_trcheck_kind kind)
{
    lab_buf en = LAB_BUF_INIT, tr = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    int rc = 0;

    if (lab_buf_read_regular(&en, english, LAB_CATALOG_TEXT_CAP, &err) < 0 ||
        lab_buf_read_regular(&tr, path, LAB_CATALOG_TEXT_CAP, &err) < 0)
        rc = err.code == LAB_ENOMEM ? LAB_ENOMEM : lab_strvec_push(&t->broken, err.msg);
    else if ((rc = lab_translation_compare_markdown(en.buf, en.len, tr.buf, tr.len, path,
                                                    kind == LAB_TRCHECK_HINTS, &t->broken)) == 0)
        rc = check_figures(t, tr.buf, tr.len, path, 1);
    lab_buf_release(&en);
    lab_buf_release(&tr);
    return rc;
}

static int
check_one(lab_trcheck *t, const char *english, const char *lang, lab_trcheck_kind kind,
          lab_err *err)
{
    lab_translation tr;
    lab_err terr = LAB_ERR_INIT;
    int rc;

    if ((rc = lab_translation_check(english, lang, &tr, &terr)) < 0) {
        free(tr.path);
        return rc == LAB_ENOMEM ? lab_err_set(err, rc, "out of memory") : 0;
    }
    t->files++;
    if (tr.state == LAB_TRANSLATION_MISSING)
        rc = lab_strvec_pushf(&t->missing, "%s:0: warning: no %s translation (%s)", english, lang,
                              base_name(tr.path));
    else if (tr.state == LAB_TRANSLATION_BROKEN)
        rc = lab_strvec_push(&t->broken, terr.msg);
    else if (tr.state == LAB_TRANSLATION_STALE)
        rc = lab_strvec_pushf(&t->stale,
                              "%s:1: warning: stale: it follows %s @ %s, which is @ %s now "
                              "(update the text, then the first line)",
                              tr.path, base_name(english), tr.follows, tr.english);
    if (rc == 0 && tr.state != LAB_TRANSLATION_MISSING && tr.state != LAB_TRANSLATION_BROKEN)
        rc = kind == LAB_TRCHECK_TITLE || kind == LAB_TRCHECK_QUESTIONS
                 ? check_ini(t, english, tr.path, kind)
                 : check_markdown(t, english, tr.path, kind);
    free(tr.path);
    return rc < 0 ? lab_err_set(err, LAB_ENOMEM, "out of memory") : 0;
}

/* The English file's own figures. */
static int
check_english(lab_trcheck *t, const char *english, lab_trcheck_kind kind)
{
    lab_buf text = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    int rc = 0;

    if (!t->cat || kind == LAB_TRCHECK_TITLE)
        return 0;
    if (kind == LAB_TRCHECK_QUESTIONS)
        return check_question_figures(t, english, NULL);
    if (lab_buf_read_regular(&text, english, LAB_CATALOG_TEXT_CAP, &err) < 0)
        rc = err.code == LAB_ENOMEM ? LAB_ENOMEM : 0; /* not this check's to report */
    else
        rc = check_figures(t, text.buf, text.len, english, 1);
    lab_buf_release(&text);
    return rc;
}

int
lab_trcheck_file(lab_trcheck *t, const char *english, lab_trcheck_kind kind, lab_err *err)
{
    int rc = 0;

    if (check_english(t, english, kind) < 0)
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    for (size_t i = 0; rc == 0 && i < t->languages.n; i++)
        rc = check_one(t, english, t->languages.v[i], kind, err);
    return rc;
}
