/*
 * test-lang.c - the learner's languages from gettext-style lists and the environment, in
 * gettext's order (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), with English ending the list.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdlib.h>
#include <string.h>

#include "lab/util/lang.h"

/* Arrays, not pointers: Criterion copies the parameters into each test's own process. */
struct lang_case {
    char spec[32];
    char want[64]; /* the codes tried, space-separated */
};

static void
codes(const lab_lang *l, char *out, size_t size)
{
    out[0] = '\0';
    for (size_t i = 0; i < l->n; i++) {
        strncat(out, i ? " " : "", size - strlen(out) - 1);
        strncat(out, l->code[i], size - strlen(out) - 1);
    }
}

ParameterizedTestParameters(lang, parse)
{
    static struct lang_case cases[] = {
        { "ko_KR.UTF-8", "ko_KR ko" },
        { "ko", "ko" },
        { "zh_CN.UTF-8", "zh_CN zh" },
        { "zh", "zh_CN zh" },
        { "zh_TW.UTF-8", "zh_TW zh" }, /* Traditional Chinese is not zh_CN */
        { "ko:zh_CN", "ko zh_CN zh" },
        { "en_US.UTF-8:ko", "" }, /* English first: nothing after it is tried */
        { "de_DE@euro:ko_KR", "de_DE de ko_KR ko" },
        { "C.UTF-8", "" },
        { "POSIX", "" },
        { "", "" },
        { "::ko::", "ko" },
    };
    return cr_make_param_array(struct lang_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct lang_case *c, lang, parse)
{
    lab_lang l;
    char got[256];

    lab_lang_parse(c->spec, &l);
    codes(&l, got, sizeof(got));
    cr_expect_str_eq(got, c->want, "'%s': '%s', want '%s'", c->spec, got, c->want);
}

Test(lang, environment_in_gettext_order)
{
    lab_lang l;

    unsetenv("LANGUAGE");
    setenv("LC_ALL", "", 1);
    setenv("LC_MESSAGES", "zh_CN.UTF-8", 1);
    setenv("LANG", "ko_KR.UTF-8", 1);
    lab_lang_from_env(&l);
    cr_expect_str_eq(lab_lang_first(&l), "zh_CN", "LC_MESSAGES before LANG");
    setenv("LANGUAGE", "ko", 1);
    lab_lang_from_env(&l);
    cr_expect_str_eq(lab_lang_first(&l), "ko", "LANGUAGE first");
    unsetenv("LANGUAGE");
    setenv("LC_ALL", "C.UTF-8", 1);
    lab_lang_from_env(&l);
    cr_expect_null(lab_lang_first(&l), "LC_ALL=C.UTF-8: English");
}
