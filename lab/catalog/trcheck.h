/*
 * trcheck.h - an author's check of a content file's translations (`cudalab check-exercise`):
 * for every language the tree has (lab_translation_languages), whether the file's translation
 * is there, follows the English file as it is now, and keeps the rules of translation.h:
 * only the text keys of an INI file, as many choices as the English question, the same
 * "## " hint headings and the same code blocks, byte for byte.
 *
 * What it finds goes into three lists of one line each, "file:line: message": missing and
 * stale translations (warnings: the lab shows English for them), and broken ones (errors:
 * the translation breaks a rule).
 *
 * With a catalog set (cat), every file, the English one too, must also name only figures the
 * catalog knows (lab_catalog_expand, docs/numbers.ini): a name it does not know is broken.
 *
 * Call order: lab_trcheck_init; set cat if wanted; lab_trcheck_file for each English file;
 * read the lists; lab_trcheck_release.
 */
#ifndef LAB_CATALOG_TRCHECK_H
#define LAB_CATALOG_TRCHECK_H

#include "lab/util/err.h"
#include "lab/util/strvec.h"

struct lab_catalog;

typedef enum lab_trcheck_kind {
    LAB_TRCHECK_TEXT,      /* Markdown: the same code blocks */
    LAB_TRCHECK_HINTS,     /* Markdown hints: also the same "## " headings */
    LAB_TRCHECK_TITLE,     /* chapter.ini, exercise.ini: only "title" */
    LAB_TRCHECK_QUESTIONS, /* questions.ini: only prompt, explain, choices; as many choices */
    LAB_TRCHECK_KIND_COUNT
} lab_trcheck_kind;

typedef struct lab_trcheck {
    lab_strvec languages;          /* those the tree has, e.g. "ko", "zh_CN" */
    lab_strvec missing;            /* "english:0: warning: no ko translation (task.ko.md)" */
    lab_strvec stale;              /* "translation:1: warning: ..." */
    lab_strvec broken;             /* "translation:line: ..." */
    int files;                     /* translations looked for */
    const struct lab_catalog *cat; /* the figures' names are checked when set */
} lab_trcheck;

/* The languages of the tree under datadir; LAB_ENOMEM. */
int lab_trcheck_init(lab_trcheck *t, const char *datadir, lab_err *err);
void lab_trcheck_release(lab_trcheck *t);
/* Checks english's translation into every language; LAB_ENOMEM only. */
int lab_trcheck_file(lab_trcheck *t, const char *english, lab_trcheck_kind kind, lab_err *err);

#endif
