/*
 * lang.h - which language the learner reads: the content files' language codes ("ko",
 * "zh_CN"), taken from the environment as gettext takes them.
 *
 * The order is gettext's: LANGUAGE (a colon-separated list, each tried in turn), then the
 * first of LC_ALL, LC_MESSAGES, LANG that is set.  "ko_KR.UTF-8" is tried as "ko_KR", then
 * "ko"; "zh" alone means "zh_CN" (the only Chinese the course has).  English ("en*", "C",
 * "POSIX", nothing set) ends the list: what follows it is never tried, and an empty list means
 * English, the source every translation falls back to.  A front end's --lang sets LANGUAGE
 * before anything reads it, so the messages (gettext) and the content (this file) agree.
 *
 * A translation is shown only in a UTF-8 locale (lab_lang_utf8, after setlocale(LC_CTYPE, ""));
 * elsewhere the lab shows English and says why once.
 *
 *     lab_lang l;
 *     lab_lang_from_env(&l);
 *     for (size_t i = 0; i < l.n; i++) ... try "task.<l.code[i]>.md" ...
 */
#ifndef LAB_UTIL_LANG_H
#define LAB_UTIL_LANG_H

#include <stdbool.h>
#include <stddef.h>

#define LAB_LANG_MAX 8       /* languages tried, in order */
#define LAB_LANG_CODE_CAP 16 /* "zh_CN" and its NUL, with room */

typedef struct lab_lang {
    char code[LAB_LANG_MAX][LAB_LANG_CODE_CAP]; /* most wanted first; no "en" */
    size_t n;                                   /* 0: English */
} lab_lang;

/* The languages a gettext-style list names ("ko_KR.UTF-8", "zh_CN:en", "ko:zh_CN"). */
void lab_lang_parse(const char *spec, lab_lang *out);
/* The locale the environment names for messages: the first set of LC_ALL, LC_MESSAGES, LANG,
 * or "". */
const char *lab_lang_locale_env(void);
/* The languages the environment names (LANGUAGE, else that locale). */
void lab_lang_from_env(lab_lang *out);
/* The first language wanted, "ko" or "zh_CN", or NULL for English. */
const char *lab_lang_first(const lab_lang *l);
/* Whether the current LC_CTYPE encodes UTF-8 (call setlocale(LC_CTYPE, "") first). */
bool lab_lang_utf8(void);

#endif
