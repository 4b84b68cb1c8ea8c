/*
 * test-textwidth.c - display widths of UTF-8 text in a UTF-8 locale: ASCII one column a
 * character, Hangul and Hanzi (and their full-width punctuation) two, combining marks none;
 * cutting never splits a character and stops before a wide one that would pass the limit;
 * padding and fitting make columns of equal display width.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <locale.h>
#include <string.h>

#include "lab/util/textwidth.h"

static void
utf8_locale(void)
{
    cr_assert_not_null(setlocale(LC_CTYPE, "C.UTF-8"), "the C.UTF-8 locale is needed");
}

/* Arrays, not pointers: Criterion copies the parameters into each test's own process. */
struct width_case {
    char text[64];
    size_t cols;
};

ParameterizedTestParameters(textwidth, width)
{
    static struct width_case cases[] = {
        { "", 0 },
        { "warp", 4 },
        { "워프 실행", 9 },              /* 4 Hangul syllables, one space */
        { "并行归约", 8 },               /* 4 Hanzi */
        { "块形状：sumMatrix", 17 },     /* a full-width colon is two columns */
        { "warp마다 활성 lane 수", 21 }, /* mixed */
        { "1D、2D、3D 块", 13 },         /* the ideographic comma */
        { "e\xcc\x81", 1 },              /* e and a combining acute */
        { "\xff\xfe", 2 },               /* no UTF-8: a column a byte */
    };
    return cr_make_param_array(struct width_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct width_case *c, textwidth, width, .init = utf8_locale)
{
    cr_expect_eq(lab_text_widths(c->text), c->cols, "'%s': %zu columns, want %zu", c->text,
                 lab_text_widths(c->text), c->cols);
}

Test(textwidth, cut_stops_before_a_wide_character_that_would_pass, .init = utf8_locale)
{
    const char *s = "병렬 리덕션";

    cr_expect_eq(lab_text_cut(s, strlen(s), 4), strlen("병렬"));
    cr_expect_eq(lab_text_cut(s, strlen(s), 3), strlen("병")); /* not half of 렬 */
    cr_expect_eq(lab_text_cut(s, strlen(s), 1), 0);
    cr_expect_eq(lab_text_cut(s, strlen(s), 100), strlen(s));
    cr_expect_eq(lab_text_cut("abc", 3, 2), 2);
}

Test(textwidth, pad_makes_equal_columns, .init = utf8_locale)
{
    const char *titles[] = { "Parallel reduction", "병렬 리덕션", "并行归约", "块形状：sumMatrix" };

    for (size_t i = 0; i < sizeof(titles) / sizeof(titles[0]); i++) {
        lab_buf b = LAB_BUF_INIT;
        cr_assert_eq(lab_text_pad(&b, titles[i], 20), 0);
        cr_expect_eq(lab_text_widths(b.buf), 20, "'%s' padded is %zu columns", b.buf,
                     lab_text_widths(b.buf));
        lab_buf_release(&b);
    }
}

Test(textwidth, pad_cuts_what_is_too_wide_and_fills_the_odd_column, .init = utf8_locale)
{
    lab_buf b = LAB_BUF_INIT;

    cr_assert_eq(lab_text_pad(&b, "并行归约", 5), 0);
    cr_expect_str_eq(b.buf, "并行 "); /* two Hanzi, then a space for the fifth column */
    lab_buf_reset(&b);
    cr_assert_eq(lab_text_pad_left(&b, "归约", 6), 0);
    cr_expect_str_eq(b.buf, "  归约");
    lab_buf_release(&b);
}

Test(textwidth, fit_ends_in_dots_within_the_width, .init = utf8_locale)
{
    lab_buf b = LAB_BUF_INIT;

    cr_assert_eq(lab_text_fit(&b, "1D, 2D, 3D 블록의 thread, warp, lane 번호", 20), 0);
    cr_expect_leq(lab_text_widths(b.buf), 20);
    cr_expect(strstr(b.buf, "...") != NULL);
    cr_expect_str_eq(b.buf, "1D, 2D, 3D 블록의...");
    lab_buf_reset(&b);
    cr_assert_eq(lab_text_fit(&b, "并行归约", 8), 0);
    cr_expect_str_eq(b.buf, "并行归约");
    lab_buf_release(&b);
}

Test(textwidth, breaks_before_hanzi_and_kana_not_hangul, .init = utf8_locale)
{
    cr_expect(lab_text_breaks_before("归约", 6), "a Hanzi");
    cr_expect(lab_text_breaks_before("カーネル", 3), "katakana");
    cr_expect_not(lab_text_breaks_before("리덕션", 9), "Hangul: Korean breaks at spaces");
    cr_expect_not(lab_text_breaks_before("，", 3), "full-width punctuation never starts a line");
    cr_expect_not(lab_text_breaks_before("warp", 4), "a Latin letter");
}
