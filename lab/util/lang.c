/*
 * lang.c - the learner's languages from a gettext-style list or the environment (lang.h).
 * Pure string work on the caller's lab_lang; the only state read is the environment and,
 * for lab_lang_utf8, the locale the front end set.
 */
#include <langinfo.h>
#include <stdlib.h>
#include <string.h>

#include "lab/util/err.h"
#include "lab/util/lang.h"

/* Names that mean English: the source, so the end of the list. */
static const char *const english_names[] = { "C", "POSIX", "en" };

/* A bare language the course has under a longer code. */
static const struct {
    const char *bare;
    const char *code;
} aliases[] = {
    { "zh", "zh_CN" },
};

/* code's language part ("en" of "en_US") names English. */
static bool
is_english(const char *code)
{
    size_t bare = strcspn(code, "_");

    for (size_t i = 0; i < ARRAY_SIZE(english_names); i++)
        if (strlen(english_names[i]) == bare && !memcmp(english_names[i], code, bare))
            return true;
    return false;
}

static void
add(lab_lang *l, const char *code, size_t len)
{
    if (!len || len >= LAB_LANG_CODE_CAP || l->n == LAB_LANG_MAX)
        return;
    for (size_t i = 0; i < l->n; i++)
        if (strlen(l->code[i]) == len && !memcmp(l->code[i], code, len))
            return;
    memcpy(l->code[l->n], code, len);
    l->code[l->n][len] = '\0';
    l->n++;
}

/* One entry "ll_CC.codeset@modifier": "ll_CC", then "ll" ("zh": "zh_CN" first); false at
 * English. */
static bool
add_entry(lab_lang *l, const char *entry, size_t len)
{
    char code[LAB_LANG_CODE_CAP];
    size_t n = strcspn(entry, ".@:");
    size_t bare;

    if (n > len)
        n = len;
    if (!n || n >= sizeof(code))
        return true;
    memcpy(code, entry, n);
    code[n] = '\0';
    if (is_english(code))
        return false;
    bare = strcspn(code, "_");
    for (size_t i = 0; bare == n && i < ARRAY_SIZE(aliases); i++)
        if (!strcmp(aliases[i].bare, code))
            add(l, aliases[i].code, strlen(aliases[i].code));
    add(l, code, n);
    add(l, code, bare);
    return true;
}

void
lab_lang_parse(const char *spec, lab_lang *out)
{
    out->n = 0;
    for (const char *p = spec ? spec : ""; *p;) {
        size_t len = strcspn(p, ":");
        if (len && !add_entry(out, p, len))
            return;
        p += len + (p[len] == ':');
    }
}

const char *
lab_lang_locale_env(void)
{
    static const char *const vars[] = { "LC_ALL", "LC_MESSAGES", "LANG" };

    for (size_t i = 0; i < ARRAY_SIZE(vars); i++) {
        const char *v = getenv(vars[i]);
        if (v && *v)
            return v;
    }
    return "";
}

void
lab_lang_from_env(lab_lang *out)
{
    const char *language = getenv("LANGUAGE");

    lab_lang_parse(language && *language ? language : lab_lang_locale_env(), out);
}

const char *
lab_lang_first(const lab_lang *l)
{
    return l->n ? l->code[0] : NULL;
}

bool
lab_lang_utf8(void)
{
    const char *codeset = nl_langinfo(CODESET);
    return codeset && (!strcmp(codeset, "UTF-8") || !strcmp(codeset, "utf8"));
}
