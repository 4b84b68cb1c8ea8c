/*
 * fmtargs.h - a printf format kept apart from its arguments, to be formatted again later in
 * another language.
 *
 * A driver describes a wrong result in English ("block 3 (elements 1536..2047): expected 64713,
 * got 60332"): the report carries that text, which programs and the advice's word matching read,
 * and beside it the format and its arguments, so that the lab can show the same words in the
 * learner's language: the format is a message of the catalog (marked N_() where the driver
 * writes it), its translation keeps the conversions in the same order (msgfmt --check), and
 * lab_fmtargs_format fills it.  Only the conversions the drivers use are known (d i u x X c s,
 * e f g E G, with flags, width, precision and the length modifiers hh h l ll z j t): any other,
 * or a translation whose conversions do not match the arguments' kinds, is refused and the
 * English text stands.
 */
#ifndef LAB_UTIL_FMTARGS_H
#define LAB_UTIL_FMTARGS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#define LAB_FMTARGS_MAX 12
#define LAB_FMTARG_STR 96

typedef struct lab_fmtarg {
    char kind; /* 'i' a signed integer, 'u' an unsigned one, 'f' a double, 's' a string */
    long long i;
    unsigned long long u;
    double f;
    char s[LAB_FMTARG_STR]; /* cut at its size */
} lab_fmtarg;

typedef struct lab_fmtargs {
    size_t n;
    lab_fmtarg v[LAB_FMTARGS_MAX];
} lab_fmtargs;

/* fmt formatted with ap into text (as vsnprintf would), and ap's values kept in out by the
 * kinds fmt gives them.  false (text still written) when fmt has a conversion not known here
 * or more than LAB_FMTARGS_MAX of them: then out->n is 0. */
bool lab_fmtargs_vcapture(lab_fmtargs *out, char *text, size_t size, const char *fmt, va_list ap);
/* fmt (a translation of the captured format) filled with args into out; false, and out "",
 * when fmt's conversions are not args' kinds in args' order, or not as many. */
bool lab_fmtargs_format(const char *fmt, const lab_fmtargs *args, char *out, size_t size);

#endif
