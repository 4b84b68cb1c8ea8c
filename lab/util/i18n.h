/*
 * i18n.h - the lab's messages in the learner's language, through GNU gettext (text domain
 * "cudalab"; docs/design/i18n.md).
 *
 * Every user-facing string of the C code is marked: _("...") where it is used, N_("...") in a
 * static table (the table keeps the English; whoever shows the entry wraps it in _()), and
 * ngettext(one, many, n) where a count is printed.  xgettext collects the marks into
 * po/cudalab.pot (make pot).  Verdict names, JSON keys, exit codes and the gradebook are never
 * marked: they are read by programs.
 *
 * The order of calls, in a front end's main() only (libraries just use _()):
 *   lab_i18n_start(localedir, lang, &note, &err)   once, before the first message
 *   lab_i18n_english(true) / (false)                around output that programs read (--json)
 *   lab_i18n_choose(lang, &err)                     when the learner picks a language (menu)
 * The locale is the process's (setlocale), so this module keeps the one copy of what it chose.
 */
#ifndef LAB_UTIL_I18N_H
#define LAB_UTIL_I18N_H

#include <libintl.h>
#include <stdbool.h>

#include "lab/util/buf.h"
#include "lab/util/err.h"
#include "lab/util/strvec.h"

#define LAB_TEXT_DOMAIN "cudalab"

#define _(msgid) gettext(msgid)
#define N_(msgid) (msgid)

/*
 * Sets the locale from the environment (LC_ALL, LC_MESSAGES, LANG; LANGUAGE for the messages)
 * and binds the text domain to localedir (PREFIX/share/locale, or build/locale in a checkout).
 * lang (--lang, or the setting the store remembers; NULL or "": none) comes before the
 * environment: it becomes LANGUAGE.  A locale the machine has not generated (ko_KR.UTF-8 on a
 * fresh Debian) is read as C.UTF-8 with its language kept.  Numbers are always printed the C
 * way (LC_NUMERIC), so machine-readable output is the same in every language.  In a locale
 * that is not UTF-8 a language other than English cannot be shown: the messages stay English
 * and note (not NULL) says why, for the front end to print; otherwise note is left empty.
 */
int lab_i18n_start(const char *localedir, const char *lang, lab_buf *note, lab_err *err);

/* On: messages in English (the C locale's), whatever was chosen; off: the chosen language
 * again.  For output that programs read (--json, the gradebook). */
void lab_i18n_english(bool on);

/* The learner picked lang ("ko", "zh_CN", "en"; "" for the environment's) while the lab runs:
 * messages follow it from the next _(). */
int lab_i18n_choose(const char *lang, lab_err *err);

/* Whether lang is a well-formed language name (letters, digits, '_', '@', '.', '-'). */
bool lab_i18n_valid_name(const char *lang);

/* The languages there are messages for: "en" first, then the catalogs in the locale folder,
 * sorted. */
int lab_i18n_languages(lab_strvec *out, lab_err *err);

/* The language the messages are in now: "en" or a catalog's name ("ko", "zh_CN"). */
const char *lab_i18n_current(void);
/* Whether _() gives English now: English chosen, no catalog, or lab_i18n_english(true).  For
 * a library that puts a text of its own language into a message (an exercise's title). */
bool lab_i18n_in_english(void);

#endif
