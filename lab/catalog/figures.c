/*
 * figures.c - the texts of the catalog with their figures filled in (figures.h, catalog.h).
 *
 * A text names a figure as {{name}}.  The name is looked up in the table of measured figures
 * (docs/numbers.ini: lab/util/numbers.h) and then among the manifests' grading thresholds,
 * "EXERCISE.min_speedup" (1.10) and "EXERCISE.min_fraction_pct" (75), so that a task states
 * the threshold its manifest grades with and never another.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/catalog/figures.h"
#include "lab/catalog/translation.h"
#include "lab/util/buf.h"

#define NUMBERS_FILE "docs/numbers.ini"

/* The manifests' thresholds by "chapter/name.field" (lab_numbers_more). */
static const char *
manifest_figure(void *ctx, const char *key, char *buf, size_t size)
{
    const lab_catalog *cat = ctx;
    const char *dot = strrchr(key, '.');
    const lab_exercise *ex;
    char id[128];

    if (!dot || (size_t)(dot - key) >= sizeof(id))
        return NULL;
    memcpy(id, key, (size_t)(dot - key));
    id[dot - key] = '\0';
    if (!(ex = lab_catalog_find(cat, id)))
        return NULL;
    if (!strcmp(dot + 1, "min_speedup"))
        snprintf(buf, size, "%.2f", ex->min_speedup);
    else if (!strcmp(dot + 1, "min_fraction_pct"))
        snprintf(buf, size, "%.0f", 100 * ex->min_fraction_of_reference);
    else
        return NULL;
    return buf;
}

int
lab_catalog_expand(const lab_catalog *cat, const char *text, size_t len, const char *what,
                   lab_buf *out, lab_err *err)
{
    return lab_numbers_expand(lab_catalog_numbers(cat), text, len, what, manifest_figure,
                              (void *)cat, out, err);
}

int
lab_catalog_read_text(const lab_catalog *cat, const char *path, lab_buf *out, lab_err *err)
{
    lab_buf raw = LAB_BUF_INIT;
    int rc;

    if ((rc = lab_buf_read_regular(&raw, path, LAB_CATALOG_TEXT_CAP, err)) == 0)
        rc = lab_catalog_expand(cat, raw.buf, raw.len, path, out, err);
    lab_buf_release(&raw);
    return rc;
}

struct figures {
    lab_catalog *cat;
    lab_arena *arena;
    lab_catalog__problem_fn problem;
    void *ctx;
};

/* err's message as a problem of the list, unless it is out of memory */
static int
report(struct figures *f, int rc, const lab_err *err)
{
    return rc == LAB_ENOMEM ? rc : f->problem(f->ctx, err->msg);
}

/* hints[0..n) with their figures filled in, into a new array of the arena; a hint that names
 * an unknown figure stays as written and is a problem */
static int
fill_hints(struct figures *f, const char *file, const char *const **hints, size_t n)
{
    const char **v;
    lab_buf b = LAB_BUF_INIT, what = LAB_BUF_INIT;
    int rc = 0;

    if (!n || !*hints)
        return 0;
    if (!(v = lab_arena_calloc(f->arena, n, sizeof(*v))))
        return LAB_ENOMEM;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const char *h = (*hints)[i];
        lab_err err = LAB_ERR_INIT;
        int e;

        v[i] = h;
        if (!lab_numbers_quoted(h, strlen(h)))
            continue;
        lab_buf_reset(&b);
        lab_buf_reset(&what);
        if (lab_buf_printf(&what, "%s, hint %zu", file, i + 1) < 0) {
            rc = LAB_ENOMEM;
            break;
        }
        if ((e = lab_catalog_expand(f->cat, h, strlen(h), what.buf, &b, &err)) < 0)
            rc = report(f, e, &err);
        else if (!(v[i] = lab_arena_strdup(f->arena, b.buf)))
            rc = LAB_ENOMEM;
    }
    lab_buf_release(&b);
    lab_buf_release(&what);
    *hints = v;
    return rc;
}

/* A problem for every figure of the text at path that has no value (path may be NULL). */
static int
check_text(struct figures *f, const char *path)
{
    lab_buf b = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    int rc;

    if (!path)
        return 0;
    /* a text that cannot be read is not this check's to report: it is shown where it is read */
    if ((rc = lab_catalog_read_text(f->cat, path, &b, &err)) < 0 && rc != LAB_EPARSE)
        rc = rc == LAB_ENOMEM ? rc : 0;
    else if (rc < 0)
        rc = report(f, rc, &err);
    lab_buf_release(&b);
    return rc;
}

int
lab_catalog__figures(lab_catalog *cat, lab_arena *arena, const char *datadir,
                     lab_catalog__problem_fn problem, void *ctx)
{
    struct figures f = { .cat = cat, .arena = arena, .problem = problem, .ctx = ctx };
    lab_numbers *n = NULL;
    lab_buf path = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    int rc;

    if ((rc = lab_buf_printf(&path, "%s/" NUMBERS_FILE, datadir)) < 0)
        goto out;
    /* no table: a course that quotes no figure needs none, and one that does is told below */
    if ((rc = lab_numbers_load(path.buf, &n, &err)) < 0 && rc != LAB_ENOENT &&
        (rc = report(&f, rc, &err)) < 0)
        goto out;
    lab_catalog__set_numbers(cat, n);
    rc = 0;
    for (size_t i = 0; rc == 0 && i < lab_catalog_exercise_count(cat); i++) {
        lab_exercise *ex = (lab_exercise *)lab_catalog_exercise(cat, i);
        bool same = ex->local_hints == ex->hints;

        char *local = NULL;

        if ((rc = fill_hints(&f, ex->hints_file, &ex->hints, ex->nhints)) < 0)
            break;
        if (same) {
            ex->local_hints = ex->hints;
        } else {
            const char *lang = lab_catalog_language(cat);
            local = lang ? lab_translation_path(ex->hints_file, lang) : strdup(ex->hints_file);
            rc = local ? fill_hints(&f, local, &ex->local_hints, ex->nhints) : LAB_ENOMEM;
            free(local);
            if (rc < 0)
                break;
        }
        if ((rc = check_text(&f, ex->task)) == 0 && ex->local_task != ex->task)
            rc = check_text(&f, ex->local_task);
    }
    for (size_t i = 0; rc == 0 && i < lab_catalog_chapter_count(cat); i++) {
        const lab_chapter *ch = lab_catalog_chapter(cat, i);

        if ((rc = check_text(&f, ch->text)) == 0 && ch->local_text != ch->text)
            rc = check_text(&f, ch->local_text);
    }
out:
    lab_buf_release(&path);
    return rc;
}
