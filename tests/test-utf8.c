/*
 * test-utf8.c - lab/util/utf8: invalid UTF-8 made valid, control characters shown.
 */
#include "lab/util/utf8.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <string.h>

/* the texts inside the case: a parameterized test runs in a process of its own, where a
 * pointer into the runner's memory would lead nowhere */
struct clean_case {
    char in[32], want[64];
};

ParameterizedTestParameters(utf8, clean)
{
    static struct clean_case cases[] = {
        { "plain", "plain" },
        { "caf\xc3\xa9 \xed\x95\x9c \xe4\xb8\xad \xf0\x9f\x98\x80",
          "caf\xc3\xa9 \xed\x95\x9c \xe4\xb8\xad \xf0\x9f\x98\x80" },
        { "bad\xff\xfe.cu", "bad\xef\xbf\xbd\xef\xbf\xbd.cu" },     /* one U+FFFD a byte */
        { "\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd" },                 /* overlong '/' */
        { "\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" }, /* a surrogate */
        { "\xf4\x90\x80\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" }, /* > U+10FFFF */
        { "end\xe4\xb8", "end\xef\xbf\xbd\xef\xbf\xbd" },                           /* cut short */
        { "tab\tnl\nesc\x1b", "tab\tnl\nesc\x1b" }, /* valid, kept */
    };
    return cr_make_param_array(struct clean_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct clean_case *c, utf8, clean)
{
    lab_buf out = LAB_BUF_INIT;

    cr_assert_eq(lab_utf8_clean(&out, c->in, strlen(c->in)), 0);
    cr_expect_str_eq(out.buf, c->want);
    cr_expect(lab_utf8_valid(out.buf, out.len));
    cr_expect_eq(lab_utf8_valid(c->in, strlen(c->in)), !strcmp(c->in, c->want));
    lab_buf_release(&out);
}

Test(utf8, shown_sends_no_control_character)
{
    const char *name = "x\x1b[2J\x1b[1;1Hall PASS\x1b]0;pwned\x07\x7f\xc2\x9b\tz\n";
    lab_buf out = LAB_BUF_INIT;

    cr_assert_eq(lab_utf8_shown(&out, name, strlen(name), 0), 0);
    cr_expect_str_eq(out.buf,
                     "x\xe2\x90\x9b[2J\xe2\x90\x9b[1;1Hall PASS\xe2\x90\x9b]0;pwned\xe2\x90\x87"
                     "\xe2\x90\xa1\xef\xbf\xbd\tz\xe2\x90\x8a");
    cr_expect(lab_utf8_needs_showing(name, strlen(name), 0));
    lab_buf_reset(&out);
    cr_assert_eq(lab_utf8_shown(&out, "a\nb", 3, LAB_UTF8_KEEP_NEWLINE), 0);
    cr_expect_str_eq(out.buf, "a\nb", "a log keeps its lines");
    cr_expect_not(lab_utf8_needs_showing("a\nb\tc \xed\x95\x9c", 9, LAB_UTF8_KEEP_NEWLINE));
    lab_buf_release(&out);
}
