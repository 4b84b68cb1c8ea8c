/*
 * test-i18n.c - lab/util/i18n: which language the messages are in, and glibc's gettext
 * following it, with the catalogs `make` compiles from po/ (build/locale, or
 * CUDALAB_LOCALEDIR_TEST).
 *
 * Each test sets the locale variables it needs (Criterion runs it in a process of its own, so
 * what one sets is gone for the next).  C.UTF-8 is the one UTF-8 locale every Debian has.
 */
#include "lab/util/i18n.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A message every catalog translates, and its Chinese (po/zh_CN.po). */
#define NEXT "next:"
#define LANGUAGE_ZH_NEXT "\xe4\xb8\x8b\xe4\xb8\x80\xe6\xad\xa5\xef\xbc\x9a" /* 下一步： */

static const char *
localedir(void)
{
    const char *d = getenv("CUDALAB_LOCALEDIR_TEST");

    return d && *d ? d : "build/locale";
}

/* The locale variables: those given (NULL: unset), every other one unset. */
static void
environment(const char *lc_all, const char *lang, const char *language)
{
    static const char *const others[] = { "LC_MESSAGES", "LC_CTYPE" };

    for (size_t i = 0; i < ARRAY_SIZE(others); i++)
        cr_assert_eq(unsetenv(others[i]), 0);
    cr_assert_eq(lc_all ? setenv("LC_ALL", lc_all, 1) : unsetenv("LC_ALL"), 0);
    cr_assert_eq(lang ? setenv("LANG", lang, 1) : unsetenv("LANG"), 0);
    cr_assert_eq(language ? setenv("LANGUAGE", language, 1) : unsetenv("LANGUAGE"), 0);
}

/* lab_i18n_start with lang, succeeding; the note it left in note. */
static void
start(const char *lang, lab_buf *note)
{
    lab_err err = LAB_ERR_INIT;
    struct stat st;

    cr_assert_eq(stat(localedir(), &st), 0, "no catalogs in %s: run make first", localedir());
    cr_assert_eq(lab_i18n_start(localedir(), lang, note, &err), 0, "%s", err.msg);
}

/* Whether s holds a byte outside ASCII: Hangul or Hanzi in UTF-8. */
static bool
not_ascii(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s >= 0x80)
            return true;
    return false;
}

/* Which language, from the environment and --lang.  Strings are arrays in the struct itself:
 * Criterion copies the parameters into the test's process, where a pointer of the parent's
 * would not point at the string. */
struct choice_case {
    char lc_all[16];         /* LC_ALL; "": unset */
    char language[16];       /* LANGUAGE; "": unset */
    char lang[16];           /* --lang; "": none */
    char current[16];        /* what the messages are in then */
    char note[48];           /* a part of the note; "": none */
    char language_after[16]; /* LANGUAGE afterwards ("" unset), for the content files */
};

ParameterizedTestParameters(i18n, which_language)
{
    static struct choice_case cases[] = {
        /* the one UTF-8 locale a fresh Debian has, and LANGUAGE */
        { "C.UTF-8", "ko", "", "ko", "", "ko" },
        { "C.UTF-8", "zh_CN", "", "zh_CN", "", "zh_CN" },
        /* --lang before the environment */
        { "C.UTF-8", "ko", "zh_CN", "zh_CN", "", "zh_CN" },
        { "C.UTF-8", "ko", "en", "en", "", "en" },
        /* gettext's own rule: LANGUAGE's first entry that has a catalog; "en" has none */
        { "C.UTF-8", "en:ko", "", "ko", "", "en:ko" },
        /* not UTF-8: English, a note, and LANGUAGE=en for the content files */
        { "C", "ko", "", "en", "is not UTF-8, which ko needs", "en" },
        { "C", "", "zh_CN", "en", "is not UTF-8, which zh_CN needs", "en" },
        /* English asked for: no note */
        { "C", "", "", "en", "", "" },
        { "C.UTF-8", "", "", "en", "", "" },
    };

    return cr_make_param_array(struct choice_case, cases, ARRAY_SIZE(cases));
}

ParameterizedTest(struct choice_case *c, i18n, which_language)
{
    lab_buf note = LAB_BUF_INIT;
    const char *after;

    environment(c->lc_all, NULL, *c->language ? c->language : NULL);
    start(*c->lang ? c->lang : NULL, &note);
    cr_expect_str_eq(lab_i18n_current(), c->current);
    if (strcmp(c->current, "en"))
        cr_expect(not_ascii(_(NEXT)), "'%s' is not translated", _(NEXT));
    else
        cr_expect_str_eq(_(NEXT), NEXT);
    if (*c->note)
        cr_expect(strstr(note.buf, c->note) != NULL, "note: '%s'", note.buf);
    else
        cr_expect_str_eq(note.buf, "");
    after = getenv("LANGUAGE");
    cr_expect_str_eq(after ? after : "", c->language_after);
    lab_buf_release(&note);
}

/* --json and the gradebook: English, then the chosen language again. */
Test(i18n, english_for_programs_then_back)
{
    lab_buf note = LAB_BUF_INIT;
    char translated[64];

    environment("C.UTF-8", NULL, "zh_CN");
    start(NULL, &note);
    snprintf(translated, sizeof(translated), "%s", _(NEXT));
    cr_assert(not_ascii(translated));
    lab_i18n_english(true);
    cr_expect_str_eq(_(NEXT), NEXT);
    lab_i18n_english(false);
    cr_expect_str_eq(_(NEXT), translated);
    lab_buf_release(&note);
}

Test(i18n, numbers_print_the_c_way)
{
    lab_buf note = LAB_BUF_INIT;
    char number[16];

    environment("C.UTF-8", NULL, "ko");
    start(NULL, &note);
    snprintf(number, sizeof(number), "%.2f", 1.5);
    cr_expect_str_eq(number, "1.50");
    cr_expect_str_eq(setlocale(LC_NUMERIC, NULL), "C");
    lab_buf_release(&note);
}

/* LANG names a locale this machine has not generated: C.UTF-8 for the characters, the
 * language kept through LANGUAGE. */
Test(i18n, ungenerated_locale_keeps_its_language)
{
    lab_buf note = LAB_BUF_INIT;

    if (setlocale(LC_ALL, "ko_KR.UTF-8"))
        cr_skip_test("ko_KR.UTF-8 is generated on this machine");
    environment(NULL, "ko_KR.UTF-8", NULL);
    start(NULL, &note);
    cr_expect_str_eq(lab_i18n_current(), "ko");
    cr_expect_str_eq(getenv("LANGUAGE"), "ko_KR");
    cr_expect(not_ascii(_(NEXT)));
    cr_expect_str_eq(note.buf, "");
    lab_buf_release(&note);
}

/* The menu's choice while the lab runs, and "" for the environment's again. */
Test(i18n, choose_while_running)
{
    lab_buf note = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;

    environment("C.UTF-8", NULL, NULL);
    start(NULL, &note);
    cr_expect_str_eq(lab_i18n_current(), "en");
    cr_assert_eq(lab_i18n_choose("ko", &err), 0, "%s", err.msg);
    cr_expect_str_eq(lab_i18n_current(), "ko");
    cr_expect(not_ascii(_(NEXT)));
    cr_assert_eq(lab_i18n_choose("", &err), 0, "%s", err.msg);
    cr_expect_str_eq(lab_i18n_current(), "en");
    cr_expect_str_eq(_(NEXT), NEXT);
    /* from one catalog to another: gettext must not keep the first one's answers */
    cr_assert_eq(lab_i18n_choose("ko", &err), 0, "%s", err.msg);
    cr_expect(not_ascii(_(NEXT)));
    cr_assert_eq(lab_i18n_choose("zh_CN", &err), 0, "%s", err.msg);
    cr_expect_str_eq(lab_i18n_current(), "zh_CN");
    cr_expect_str_eq(_(NEXT), LANGUAGE_ZH_NEXT);
    cr_expect_eq(lab_i18n_choose("ko;rm", &err), LAB_EINVAL);
    lab_buf_release(&note);
}

Test(i18n, languages_are_the_catalogs_there_are)
{
    lab_strvec langs = LAB_STRVEC_INIT;
    lab_err err = LAB_ERR_INIT;
    lab_buf note = LAB_BUF_INIT;

    environment("C.UTF-8", NULL, NULL);
    start(NULL, &note);
    cr_assert_eq(lab_i18n_languages(&langs, &err), 0, "%s", err.msg);
    cr_assert_geq(langs.n, 3);
    cr_expect_str_eq(langs.v[0], "en");
    cr_expect_str_eq(langs.v[1], "ko");
    cr_expect_str_eq(langs.v[2], "zh_CN");
    lab_strvec_release(&langs);
    lab_buf_release(&note);
}

/* the name in the struct itself: Criterion copies the parameters into the test's process,
 * where a pointer of the parent's would not point at the string */
struct name_case {
    char name[16];
    bool valid;
};

ParameterizedTestParameters(i18n, language_names)
{
    static struct name_case cases[] = {
        { "ko", true },       { "zh_CN", true }, { "en", true },    { "ko_KR.UTF-8", true },
        { "sr@latin", true }, { "", false },     { "ko;x", false }, { "../ko", false },
        { "ko kr", false },   { "ko\n", false },
    };

    return cr_make_param_array(struct name_case, cases, ARRAY_SIZE(cases));
}

ParameterizedTest(struct name_case *c, i18n, language_names)
{
    cr_expect_eq(lab_i18n_valid_name(c->name), c->valid, "'%s'", c->name);
}
