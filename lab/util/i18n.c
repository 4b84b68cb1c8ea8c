/*
 * i18n.c - choosing the language of the messages and binding the text domain (see i18n.h).
 *
 * glibc's gettext takes the language from LANGUAGE (a list, "ko:en") unless the messages'
 * locale is plain "C", then from LC_ALL, LC_MESSAGES and LANG.  C.UTF-8 is not "C": on a
 * machine that has only C.UTF-8, LANG=C.UTF-8 LANGUAGE=ko shows Korean, so a --lang or a
 * stored choice is passed on as LANGUAGE and nothing else is needed.  English is the C
 * locale's messages: LC_MESSAGES "C" makes gettext ignore LANGUAGE and return the msgids.
 */
#include "lab/util/i18n.h"
#include "lab/util/dirlist.h"
#include "lab/util/lang.h"

#include <errno.h>
#include <langinfo.h>
#include <stdio.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NAME_MAX_LEN 64

/* What lab_i18n_start chose; the locale itself is process-wide, so is this record of it. */
static struct {
    char localedir[4096];
    char messages[256]; /* LC_MESSAGES as chosen, for lab_i18n_english(false) */
    char current[NAME_MAX_LEN];
    char *env_language; /* LANGUAGE as the lab found it, or NULL */
    bool utf8;
} chosen = { .current = "en" };

bool
lab_i18n_valid_name(const char *lang)
{
    size_t len = strlen(lang);

    if (!len || len >= NAME_MAX_LEN)
        return false;
    for (const char *p = lang; *p; p++)
        if (!(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') && !(*p >= '0' && *p <= '9') &&
            !strchr("_@.-", *p))
            return false;
    return true;
}

/* Whether the locale folder has our catalog for name ("zh_CN"). */
static bool
has_catalog(const char *name)
{
    lab_buf path = LAB_BUF_INIT;
    bool found;

    lab_buf_printf(&path, "%s/%s/LC_MESSAGES/" LAB_TEXT_DOMAIN ".mo", chosen.localedir, name);
    found = access(path.buf, R_OK) == 0;
    lab_buf_release(&path);
    return found;
}

/* The catalog gettext would take for one entry of a language list or a locale name, as
 * gettext tries them: "zh_CN.UTF-8" -> zh_CN, "ko_KR" -> ko; "" when there is none. */
static void
catalog_for(const char *entry, size_t len, char out[NAME_MAX_LEN])
{
    size_t n = strcspn(entry, ".@:");

    n = n < len ? n : len;
    out[0] = '\0';
    if (!n || n >= NAME_MAX_LEN)
        return;
    memcpy(out, entry, n);
    out[n] = '\0';
    if (has_catalog(out))
        return;
    out[strcspn(out, "_")] = '\0';
    if (!has_catalog(out))
        out[0] = '\0';
}

/* The language the messages would be in, as gettext chooses it: where LANGUAGE is set, its
 * first entry with a catalog ("en" has none: English) and never the locale's language; else
 * the messages' locale's; "en" when there is no catalog.  With english_locale (the messages'
 * locale is plain C) gettext follows neither: this is then what was asked for. */
static void
find_current(bool english_locale, char out[NAME_MAX_LEN])
{
    const char *list = getenv("LANGUAGE"), *messages = setlocale(LC_MESSAGES, NULL);

    out[0] = '\0';
    for (const char *p = list; p && *p && !*out; p += strcspn(p, ":"), p += *p == ':')
        catalog_for(p, strcspn(p, ":"), out);
    if (!*out && !(list && *list) && !english_locale && messages)
        catalog_for(messages, strlen(messages), out);
    if (!*out)
        snprintf(out, NAME_MAX_LEN, "en");
}

static bool
is_plain_c(const char *locale)
{
    return !locale || !strcmp(locale, "C") || !strcmp(locale, "POSIX");
}

int
lab_i18n_start(const char *localedir, const char *lang, lab_buf *note, lab_err *err)
{
    const char *messages;
    bool english_locale;
    const char *wanted;
    lab_lang env;

    lab_buf_reset(note);
    snprintf(chosen.localedir, sizeof(chosen.localedir), "%s", localedir ? localedir : "");
    if (!chosen.env_language && getenv("LANGUAGE") &&
        !(chosen.env_language = strdup(getenv("LANGUAGE"))))
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    if (lang && *lang && setenv("LANGUAGE", lang, 1) < 0)
        return lab_err_set(err, LAB_ENOMEM, "cannot set LANGUAGE: %s", strerror(errno));
    if (!setlocale(LC_ALL, "")) {
        /* a locale this machine has not generated: its characters through C.UTF-8, its
         * language through LANGUAGE (unless LANGUAGE already names one) */
        const char *asked = lab_lang_locale_env();
        const char *language = getenv("LANGUAGE");
        char name[NAME_MAX_LEN];

        if (!setlocale(LC_ALL, "C.UTF-8"))
            setlocale(LC_ALL, "C");
        snprintf(name, sizeof(name), "%.*s", (int)strcspn(asked, ".@"), asked);
        if ((!language || !*language) && *name && !is_plain_c(name) &&
            setenv("LANGUAGE", name, 1) < 0)
            return lab_err_set(err, LAB_ENOMEM, "cannot set LANGUAGE: %s", strerror(errno));
    }
    /* 1.5, never 1,5: the JSON, the CSV and the tables read alike in every language */
    setlocale(LC_NUMERIC, "C");
    chosen.utf8 = lab_lang_utf8();
    messages = setlocale(LC_MESSAGES, NULL);
    english_locale = is_plain_c(messages);
    find_current(english_locale, chosen.current);
    /* the language asked for: the one gettext found, else the environment's first (LANGUAGE,
     * which gettext ignores in the plain C locale, where a learner may still have set it) */
    lab_lang_from_env(&env);
    wanted = strcmp(chosen.current, "en") ? chosen.current : lab_lang_first(&env);
    if (!chosen.utf8 && wanted) {
        lab_buf_printf(note,
                       "the locale (%s) is not UTF-8, which %s needs: the messages stay in "
                       "English (LANG=C.UTF-8 or a UTF-8 locale shows them)",
                       nl_langinfo(CODESET), wanted);
        setlocale(LC_MESSAGES, "C");
        /* the chapter texts follow LANGUAGE too: English for them as well */
        setenv("LANGUAGE", "en", 1);
        snprintf(chosen.current, sizeof(chosen.current), "en");
    } else if (english_locale) {
        snprintf(chosen.current, sizeof(chosen.current), "en");
    }
    messages = setlocale(LC_MESSAGES, NULL);
    snprintf(chosen.messages, sizeof(chosen.messages), "%s", messages ? messages : "C");
    if (*chosen.localedir && !bindtextdomain(LAB_TEXT_DOMAIN, chosen.localedir))
        return lab_err_set(err, LAB_ENOMEM, "cannot bind the messages to '%s': %s",
                           chosen.localedir, strerror(errno));
    bind_textdomain_codeset(LAB_TEXT_DOMAIN, "UTF-8");
    textdomain(LAB_TEXT_DOMAIN);
    return 0;
}

void
lab_i18n_english(bool on)
{
    setlocale(LC_MESSAGES, on ? "C" : chosen.messages);
}

int
lab_i18n_choose(const char *lang, lab_err *err)
{
    if (*lang && !lab_i18n_valid_name(lang))
        return lab_err_set(err, LAB_EINVAL, "'%s' is not a language name", lang);
    if (!*lang)
        lang = chosen.env_language; /* the environment's again */
    if ((lang ? setenv("LANGUAGE", lang, 1) : unsetenv("LANGUAGE")) < 0)
        return lab_err_set(err, LAB_ENOMEM, "cannot set LANGUAGE: %s", strerror(errno));
    if (!chosen.utf8 || is_plain_c(chosen.messages)) {
        snprintf(chosen.current, sizeof(chosen.current), "en");
        return 0;
    }
    /* gettext keeps the translations it found until the messages' locale changes: setting
     * the same one again is not a change (glibc 2.36), so through C and back */
    setlocale(LC_MESSAGES, "C");
    setlocale(LC_MESSAGES, chosen.messages);
    find_current(false, chosen.current);
    return 0;
}

const char *
lab_i18n_current(void)
{
    return chosen.current;
}

bool
lab_i18n_in_english(void)
{
    return is_plain_c(setlocale(LC_MESSAGES, NULL)) || !*chosen.current ||
           !strcmp(chosen.current, "en");
}

int
lab_i18n_languages(lab_strvec *out, lab_err *err)
{
    lab_strvec names = LAB_STRVEC_INIT;
    int rc = lab_strvec_push(out, "en");

    if (rc == 0 && *chosen.localedir)
        rc = lab_dirlist(chosen.localedir, "", false, &names); /* sorted */
    for (size_t i = 0; rc == 0 && i < names.n; i++)
        if (lab_i18n_valid_name(names.v[i]) && has_catalog(names.v[i]))
            rc = lab_strvec_push(out, names.v[i]);
    lab_strvec_release(&names);
    return rc < 0 ? lab_err_set(err, LAB_ENOMEM, "out of memory") : 0;
}
