/*
 * translation.h - the translations of the course's content files, beside their English files.
 *
 * A translation of F.EXT into LANG is F.LANG.EXT in the same folder ("task.md" ->
 * "task.ko.md", "questions.ini" -> "questions.zh_CN.ini").  Its first line names the English
 * revision it follows, the first 12 hex digits of the English file's SHA-256
 * (`sha256sum FILE | cut -c1-12`):
 *   Markdown   <!-- translation of task.md @ 3f2a9c0d1e4b -->
 *   INI        ; translation of questions.ini @ 3f2a9c0d1e4b
 * The same digits as the English file's now: current; other digits: stale (the English text
 * changed since); no file: missing.  A readable file without that first line is broken.
 *
 * An INI translation holds the English file's sections and only their text keys (the caller
 * names them: a title, a question's prompt, explain and choices); every other key comes from
 * the English file, and one in a translation is an error naming the file and line.
 *
 * Ownership: lab_translation_path's string and a lab_translation's path are the caller's
 * (free()); a lab_translated_ini is released with lab_translated_ini_release.
 */
#ifndef LAB_CATALOG_TRANSLATION_H
#define LAB_CATALOG_TRANSLATION_H

#include <stdbool.h>
#include <stddef.h>

#include "lab/util/err.h"
#include "lab/util/strvec.h"

#define LAB_TRANSLATION_HASH_LEN 12

typedef enum lab_translation_state {
    LAB_TRANSLATION_MISSING, /* no translation file */
    LAB_TRANSLATION_CURRENT, /* follows the English file as it is now */
    LAB_TRANSLATION_STALE,   /* follows an older English text */
    LAB_TRANSLATION_BROKEN,  /* no "translation of NAME @ HASH" first line (the err says why) */
    LAB_TRANSLATION_STATE_COUNT
} lab_translation_state;

typedef struct lab_translation {
    char *path; /* the translation's path, malloc'ed */
    lab_translation_state state;
    char follows[LAB_TRANSLATION_HASH_LEN + 1]; /* the revision its first line names, or "" */
    char english[LAB_TRANSLATION_HASH_LEN + 1]; /* the English file's revision now */
} lab_translation;

/* "dir/task.md" in "ko": "dir/task.ko.md", malloc'ed; NULL when out of memory. */
char *lab_translation_path(const char *english, const char *lang);

/*
 * The state of english's translation into lang into *out (whose path the caller frees).
 * 0, with a broken translation's reason ("path:1: ...") in err; LAB_ENOMEM, or LAB_EIO /
 * LAB_ENOENT when the English file cannot be read.
 */
int lab_translation_check(const char *english, const char *lang, lab_translation *out,
                          lab_err *err);

/* How many bytes the marker line at the start of text takes with its newline (0: none). */
size_t lab_translation_marker_len(const char *text, size_t len);

/*
 * Problems of a Markdown translation against its English text, each one line "path:line:
 * message" pushed onto problems: the fenced code blocks must be the same, byte for byte and
 * in the same order, and so must the "## " headings that split hints when hints is true.
 */
int lab_translation_compare_markdown(const char *english, size_t english_len,
                                     const char *translated, size_t translated_len,
                                     const char *path, bool hints, lab_strvec *problems);

typedef struct lab_translated_key {
    char *section;
    char *key;
    char *value; /* continuation lines joined with '\n' */
    int line;
} lab_translated_key;

typedef struct lab_translated_ini {
    lab_translated_key *v;
    size_t n;
} lab_translated_ini;

#define LAB_TRANSLATED_INI_INIT                                                                    \
    {                                                                                              \
        NULL, 0                                                                                    \
    }

/*
 * Reads the INI translation at path, whose keys must all be in text_keys (NULL-terminated):
 * LAB_EPARSE "path:line: ..." for another key, a syntax error or a section that english_ini
 * (the English file, read for its section headers) does not have.
 */
int lab_translated_ini_read(const char *path, const char *english_ini, const char *const *text_keys,
                            lab_translated_ini *out, lab_err *err);
/* The translated value of section's key, NULL when the translation does not have it. */
const lab_translated_key *lab_translated_ini_find(const lab_translated_ini *t, const char *section,
                                                  const char *key);
void lab_translated_ini_release(lab_translated_ini *t);

/*
 * The languages the tree under datadir has translations in (any file NAME.LANG.EXT beside a
 * NAME.EXT under docs/ or exercises/), sorted, pushed onto out.
 */
int lab_translation_languages(const char *datadir, lab_strvec *out, lab_err *err);

#endif
