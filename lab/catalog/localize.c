/*
 * localize.c - the catalog in the learner's language: for every chapter and exercise, each of
 * its text files (chapter.ini's title, the chapter text, exercise.ini's title, task.md,
 * hints.md) is shown from its translation when one is current, and from the English file
 * otherwise, file by file (localize.h; the file format in translation.h).  A stale or broken
 * translation is not shown; the item's translation_note names it, once, where it is read.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/catalog/localize.h"
#include "lab/catalog/translation.h"
#include "lab/util/buf.h"
#include "lab/util/i18n.h"

/* The keys an INI translation may hold, by the English file's name. */
static const char *const title_keys[] = { "title", NULL };

struct localize {
    lab_arena *arena;
    const lab_lang *lang;
    lab_buf note;         /* the current item's translations not shown, "; "-separated */
    const char *language; /* the first language a translation was shown in */
};

static const char *
base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static int add_note(struct localize *lz, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* One more translation passed over, onto the item's note. */
static int
add_note(struct localize *lz, const char *fmt, ...)
{
    va_list ap;
    int rc;

    if (lz->note.len && lab_buf_adds(&lz->note, "; ") < 0)
        return LAB_ENOMEM;
    va_start(ap, fmt);
    rc = lab_buf_vprintf(&lz->note, fmt, ap);
    va_end(ap);
    return rc;
}

/*
 * The file to show for english into *out: the path of its first current translation, or
 * english itself.  A stale or broken translation ends the search: English is shown and the
 * note says which translation was passed over.
 */
static int
pick(struct localize *lz, const char *english, const char **out)
{
    *out = english;
    for (size_t i = 0; english && i < lz->lang->n; i++) {
        lab_translation t;
        lab_err err = LAB_ERR_INIT;
        int rc = lab_translation_check(english, lz->lang->code[i], &t, &err);

        if (rc == 0 && t.state == LAB_TRANSLATION_CURRENT) {
            rc = (*out = lab_arena_strdup(lz->arena, t.path)) ? 0 : LAB_ENOMEM;
            if (!lz->language && !(lz->language = lab_arena_strdup(lz->arena, lz->lang->code[i])))
                rc = LAB_ENOMEM;
        } else if (rc == 0 && t.state == LAB_TRANSLATION_STALE) {
            rc =
                add_note(lz, _("%s translates an older %s"), base_name(t.path), base_name(english));
        } else if (rc == 0 && t.state == LAB_TRANSLATION_BROKEN) {
            rc = add_note(lz, "%s", err.msg);
        }
        free(t.path);
        if (rc == LAB_ENOMEM)
            return rc;
        if (rc < 0 || t.state != LAB_TRANSLATION_MISSING)
            return 0;
    }
    return 0;
}

/* A translated INI file's one-line title (section's "title"), or english_title. */
static int
pick_title(struct localize *lz, const char *ini, const char *section, const char *english_title,
           const char **out)
{
    lab_translated_ini t = LAB_TRANSLATED_INI_INIT;
    const lab_translated_key *k;
    lab_err err = LAB_ERR_INIT;
    const char *path;
    char *title;
    int rc;

    *out = english_title;
    if ((rc = pick(lz, ini, &path)) < 0 || path == ini)
        return rc;
    if ((rc = lab_translated_ini_read(path, ini, title_keys, &t, &err)) < 0)
        return rc == LAB_ENOMEM ? rc : add_note(lz, "%s", err.msg);
    if ((k = lab_translated_ini_find(&t, section, "title")) && *k->value) {
        if (!(title = lab_arena_strdup(lz->arena, k->value)))
            rc = LAB_ENOMEM;
        for (char *p = title; p && (p = strchr(p, '\n'));)
            *p = ' ';
        *out = title ? title : english_title;
    }
    lab_translated_ini_release(&t);
    return rc;
}

/* The hints of the translated hints file, as many as the English file has. */
static int
pick_hints(struct localize *lz, lab_exercise *ex)
{
    const char *path;
    const char *const *hints = NULL;
    size_t n = 0, skip;
    lab_buf text = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    int rc;

    ex->local_hints = ex->hints;
    if ((rc = pick(lz, ex->hints_file, &path)) < 0 || path == ex->hints_file)
        return rc;
    if ((rc = lab_buf_read_regular(&text, path, LAB_CATALOG_TEXT_CAP, &err)) < 0) {
        rc = rc == LAB_ENOMEM ? rc : add_note(lz, "%s", err.msg);
        goto out;
    }
    skip = lab_translation_marker_len(text.buf, text.len);
    if ((rc = lab_catalog__split_hints(lz->arena, text.buf + skip, &hints, &n)) < 0)
        goto out;
    if (n == ex->nhints) {
        ex->local_hints = hints;
    } else {
        rc = add_note(lz, ngettext("%s has %zu hint, %s %zu", "%s has %zu hints, %s %zu", n),
                      base_name(path), n, base_name(ex->hints_file), ex->nhints);
    }
out:
    lab_buf_release(&text);
    return rc;
}

/* The note gathered for one item, into the arena (NULL when none); the buffer is emptied. */
static int
take_note(struct localize *lz, const char **out)
{
    lab_buf shown = LAB_BUF_INIT;
    int rc = 0;

    *out = NULL;
    if (!lz->note.len)
        return 0;
    if (lab_buf_printf(&shown, _("%s: English shown"), lz->note.buf) < 0 ||
        !(*out = lab_arena_strdup(lz->arena, shown.buf)))
        rc = LAB_ENOMEM;
    lab_buf_release(&shown);
    lab_buf_reset(&lz->note);
    return rc;
}

static int
localize_exercise(struct localize *lz, lab_exercise *ex)
{
    int rc;

    if ((rc = pick_title(lz, ex->manifest, "exercise", ex->title, &ex->local_title)) < 0 ||
        (rc = pick(lz, ex->task, &ex->local_task)) < 0 || (rc = pick_hints(lz, ex)) < 0)
        return rc;
    return take_note(lz, &ex->translation_note);
}

static int
localize_chapter(struct localize *lz, lab_chapter *ch, const char *datadir)
{
    lab_buf ini = LAB_BUF_INIT;
    int rc;

    if ((rc = lab_buf_printf(&ini, "%s/exercises/%s/chapter.ini", datadir, ch->id)) == 0 &&
        (rc = pick_title(lz, ini.buf, "chapter", ch->title, &ch->local_title)) == 0 &&
        (rc = pick(lz, ch->text, &ch->local_text)) == 0)
        rc = take_note(lz, &ch->translation_note);
    lab_buf_release(&ini);
    return rc;
}

int
lab_catalog__localize(lab_catalog *cat, lab_arena *arena, const char *datadir, const lab_lang *lang)
{
    static const lab_lang english = { .n = 0 };
    struct localize lz = { .arena = arena, .lang = lang ? lang : &english, .note = LAB_BUF_INIT };
    int rc = 0;

    for (size_t i = 0; rc == 0 && i < lab_catalog_chapter_count(cat); i++)
        rc = localize_chapter(&lz, (lab_chapter *)lab_catalog_chapter(cat, i), datadir);
    for (size_t i = 0; rc == 0 && i < lab_catalog_exercise_count(cat); i++)
        rc = localize_exercise(&lz, (lab_exercise *)lab_catalog_exercise(cat, i));
    lab_buf_release(&lz.note);
    if (rc == 0)
        lab_catalog__set_language(cat, lz.language);
    return rc;
}
