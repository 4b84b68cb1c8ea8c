/*
 * test-fmtargs.c - a printf format kept apart from its arguments (lab/util/fmtargs.h): the
 * English text as printf gives it, the arguments by kind, and the same format, or a translation
 * of it, filled again; what does not match is refused.
 */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "lab/util/err.h"
#include "lab/util/fmtargs.h"

static bool
capture(lab_fmtargs *a, char *text, size_t size, const char *fmt, ...)
{
    va_list ap;
    bool ok;

    va_start(ap, fmt);
    ok = lab_fmtargs_vcapture(a, text, size, fmt, ap);
    va_end(ap);
    return ok;
}

Test(fmtargs, the_drivers_block_detail_round_trips)
{
    const char *fmt = "block %zu (elements %zu..%zu): expected %d, got %d";
    char text[256], again[256];
    lab_fmtargs a;

    cr_assert(
        capture(&a, text, sizeof(text), fmt, (size_t)3, (size_t)1536, (size_t)2047, 64713, -60332));
    cr_assert_str_eq(text, "block 3 (elements 1536..2047): expected 64713, got -60332");
    cr_assert_eq(a.n, 5);
    cr_assert_eq(a.v[0].kind, 'u');
    cr_assert_eq(a.v[4].kind, 'i');
    cr_assert_eq(a.v[4].i, -60332);
    cr_assert(lab_fmtargs_format(fmt, &a, again, sizeof(again)));
    cr_assert_str_eq(again, text);
    cr_assert(lab_fmtargs_format("block %zu (원소 %zu..%zu): 기댓값 %d, 결과 %d", &a, again,
                                 sizeof(again)));
    cr_assert_str_eq(again, "block 3 (원소 1536..2047): 기댓값 64713, 결과 -60332");
}

Test(fmtargs, every_kind_and_modifier)
{
    const char *fmt = "%s[%lu] = %.9g, %u%% of %hhu, %ld %lld %c %x %5.2f %-4d|";
    char text[256], again[256], want[256];
    lab_fmtargs a;

    cr_assert(capture(&a, text, sizeof(text), fmt, "g_odata", 12ul, 0.1, 7u, 200, -5l, 1ll << 40,
                      'q', 255u, 3.14159, 42));
    snprintf(want, sizeof(want), fmt, "g_odata", 12ul, 0.1, 7u, 200, -5l, 1ll << 40, 'q', 255u,
             3.14159, 42);
    cr_assert_str_eq(text, want);
    cr_assert(lab_fmtargs_format(fmt, &a, again, sizeof(again)));
    cr_assert_str_eq(again, want);
}

Test(fmtargs, a_translation_that_does_not_match_is_refused)
{
    char text[128], out[128] = "x";
    lab_fmtargs a;

    cr_assert(capture(&a, text, sizeof(text), "%s[%zu] was never written", "out", (size_t)9));
    cr_assert_not(lab_fmtargs_format("%zu %s", &a, out, sizeof(out)), "kinds out of order");
    cr_assert_str_eq(out, "");
    cr_assert_not(lab_fmtargs_format("%s", &a, out, sizeof(out)), "too few conversions");
    cr_assert_not(lab_fmtargs_format("%s %zu %d", &a, out, sizeof(out)), "too many");
    cr_assert_not(lab_fmtargs_format("%s %n", &a, out, sizeof(out)), "%n is not known");
    cr_assert_not(lab_fmtargs_format("%s %1$zu", &a, out, sizeof(out)), "no positions");
    cr_assert_not(lab_fmtargs_format("%s %zu %", &a, out, sizeof(out)), "a lone % at the end");
    cr_assert_not(lab_fmtargs_format("%s %zu %l", &a, out, sizeof(out)), "a modifier at the end");
    cr_assert(lab_fmtargs_format("%s 의 [%zu]", &a, out, sizeof(out)));
    cr_assert_str_eq(out, "out 의 [9]");
}

Test(fmtargs, a_format_not_known_keeps_no_arguments)
{
    char text[64];
    lab_fmtargs a;
    void *p = text;

    cr_assert_not(capture(&a, text, sizeof(text), "at %p", p));
    cr_assert_eq(a.n, 0);
    cr_assert_not(capture(&a, text, sizeof(text), "%d %d %d %d %d %d %d %d %d %d %d %d %d", 1, 2, 3,
                          4, 5, 6, 7, 8, 9, 10, 11, 12, 13),
                  "more than LAB_FMTARGS_MAX");
    cr_assert_eq(a.n, 0);
    cr_assert_str_eq(text, "1 2 3 4 5 6 7 8 9 10 11 12 13");
}

Test(fmtargs, a_small_buffer_is_cut_not_overrun)
{
    char text[64], out[8];
    lab_fmtargs a;

    cr_assert(capture(&a, text, sizeof(text), "%s and %d", "a long string", 12345));
    cr_assert(lab_fmtargs_format("%s and %d", &a, out, sizeof(out)));
    cr_assert_eq(strlen(out), 7);
    cr_assert_str_eq(out, "a long ");
}

/* lab_err_set_msg: the message's format and arguments kept where the caller gave room (a
 * driver's no-GPU reason, shown in the learner's language), and no format after a plain set or
 * a wrap, whose words are no longer the format's */
Test(fmtargs, err_set_msg_keeps_the_format_where_there_is_room)
{
    lab_err err = LAB_ERR_INIT;
    lab_fmtargs why;
    char out[128];

    cr_assert_eq(lab_err_set_msg(&err, LAB_ENODEV, "no GPU number %d (%d visible)", 3, 1),
                 LAB_ENODEV);
    cr_assert_str_eq(err.msg, "no GPU number 3 (1 visible)");
    cr_assert_null(err.format, "no room given: no format kept");
    err.args = &why;
    lab_err_set_msg(&err, LAB_ENODEV, "no GPU number %d (%d visible)", 3, 1);
    cr_assert_str_eq(err.msg, "no GPU number 3 (1 visible)");
    cr_assert_str_eq(err.format, "no GPU number %d (%d visible)");
    cr_assert(lab_fmtargs_format("GPU %d번이 없습니다 (%d개가 보임)", err.args, out, sizeof(out)));
    cr_assert_str_eq(out, "GPU 3번이 없습니다 (1개가 보임)");
    lab_err_wrap(&err, "probe");
    cr_assert_null(err.format, "wrapped: the words are not the format's");
    lab_err_set_msg(&err, LAB_ENODEV, "no CUDA-capable device is visible");
    lab_err_set(&err, LAB_EINVAL, "something else");
    cr_assert_null(err.format, "set again: the format is gone");
}
