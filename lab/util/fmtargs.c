/*
 * fmtargs.c - a printf format and its arguments, apart (see fmtargs.h).
 */
#include "lab/util/fmtargs.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

/* One conversion at fmt ('%' there): its length in fmt, its kind ('i', 'u', 'f', 's', 'c'; '%'
 * for "%%") and its length modifier ("", "hh", "h", "l", "ll", "z", "j", "t"); 0 when it is not
 * one known here. */
static size_t
conversion(const char *fmt, char *kind, char length[3])
{
    const char *p = fmt + 1;
    size_t n = 0;

    if (*p == '%') {
        *kind = '%';
        return 2;
    }
    p += strspn(p, "-+ #0");
    p += strspn(p, "0123456789");
    if (*p == '.') {
        p++;
        p += strspn(p, "0123456789");
    }
    while (n < 2 && p[n] && strchr("hlzjt", p[n]) && (n == 0 || p[n] == p[0]))
        n++;
    memcpy(length, p, n);
    length[n] = '\0';
    p += n;
    if (!*p)
        return 0;
    if (strchr("di", *p))
        *kind = 'i';
    else if (strchr("uxX", *p))
        *kind = 'u';
    else if (strchr("efgEG", *p) && n == 0)
        *kind = 'f';
    else if (*p == 's' && n == 0)
        *kind = 's';
    else if (*p == 'c' && n == 0)
        *kind = 'c';
    else
        return 0;
    return (size_t)(p + 1 - fmt);
}

static long long
signed_arg(const char *length, va_list *ap)
{
    if (!strcmp(length, "l"))
        return va_arg(*ap, long);
    if (!strcmp(length, "ll"))
        return va_arg(*ap, long long);
    if (!strcmp(length, "z") || !strcmp(length, "t"))
        return va_arg(*ap, ssize_t);
    if (!strcmp(length, "j"))
        return va_arg(*ap, intmax_t);
    return va_arg(*ap, int); /* hh and h are promoted */
}

static unsigned long long
unsigned_arg(const char *length, va_list *ap)
{
    if (!strcmp(length, "l"))
        return va_arg(*ap, unsigned long);
    if (!strcmp(length, "ll"))
        return va_arg(*ap, unsigned long long);
    if (!strcmp(length, "z") || !strcmp(length, "t"))
        return va_arg(*ap, size_t);
    if (!strcmp(length, "j"))
        return va_arg(*ap, uintmax_t);
    return va_arg(*ap, unsigned);
}

bool
lab_fmtargs_vcapture(lab_fmtargs *out, char *text, size_t size, const char *fmt, va_list ap)
{
    va_list copy, args; /* args: a va_list of this function's, whose address can be passed */
    bool ok = true;

    va_copy(copy, ap);
    vsnprintf(text, size, fmt, copy);
    va_end(copy);
    va_copy(args, ap);
    out->n = 0;
    for (const char *p = strchr(fmt, '%'); p && ok; p = strchr(p, '%')) {
        char kind, length[3];
        size_t len = conversion(p, &kind, length);
        lab_fmtarg *a = &out->v[out->n];

        if (!len || (kind != '%' && out->n == LAB_FMTARGS_MAX)) {
            ok = false;
            break;
        }
        p += len;
        if (kind == '%')
            continue;
        memset(a, 0, sizeof(*a));
        a->kind = kind == 'c' ? 'i' : kind;
        if (kind == 'i' || kind == 'c')
            a->i = signed_arg(length, &args);
        else if (kind == 'u')
            a->u = unsigned_arg(length, &args);
        else if (kind == 'f')
            a->f = va_arg(args, double);
        else
            snprintf(a->s, sizeof(a->s), "%s", va_arg(args, const char *));
        out->n++;
    }
    va_end(args);
    if (!ok)
        out->n = 0;
    return ok;
}

/* One conversion spec (flags, width, precision, conversion) with its length modifier replaced
 * by ll for an integer, dropped otherwise, into spec. */
static bool
normalized(const char *p, size_t len, const char *length, char kind, char *spec, size_t size)
{
    size_t body = len - 1 - strlen(length); /* the spec less the conversion and the modifier */

    if (len + 2 >= size)
        return false;
    memcpy(spec, p, body);
    spec[body] = '\0';
    if (kind == 'i' || kind == 'u')
        strcat(spec, "ll"); /* every integer is kept as a long long */
    strncat(spec, p + len - 1, 1);
    return true;
}

bool
lab_fmtargs_format(const char *fmt, const lab_fmtargs *args, char *out, size_t size)
{
    size_t used = 0, next = 0;
    const char *p = fmt;

    if (size == 0)
        return false;
    out[0] = '\0';
    while (*p) {
        const char *pct = strchr(p, '%');
        size_t lit = pct ? (size_t)(pct - p) : strlen(p), len;
        char kind, length[3], spec[32];
        int n = 0;

        if (used + lit >= size)
            lit = size - 1 - used;
        memcpy(out + used, p, lit);
        used += lit;
        out[used] = '\0';
        if (!pct)
            break;
        if (!(len = conversion(pct, &kind, length)))
            goto refuse;
        p = pct + len;
        if (kind == '%') {
            n = snprintf(out + used, size - used, "%%");
        } else {
            const lab_fmtarg *a = next < args->n ? &args->v[next++] : NULL;
            char want = kind == 'c' ? 'i' : kind;
            if (!a ||
                !(a->kind == want || (a->kind == 'i' && want == 'u') ||
                  (a->kind == 'u' && want == 'i')) ||
                !normalized(pct, len, length, kind, spec, sizeof(spec)))
                goto refuse;
            if (kind == 'f')
                n = snprintf(out + used, size - used, spec, a->f);
            else if (kind == 's')
                n = snprintf(out + used, size - used, spec, a->s);
            else if (kind == 'c')
                n = snprintf(out + used, size - used, spec, (int)a->i);
            else if (a->kind == 'i')
                n = snprintf(out + used, size - used, spec, a->i);
            else
                n = snprintf(out + used, size - used, spec, a->u);
        }
        if (n < 0)
            goto refuse;
        used += (size_t)n < size - used ? (size_t)n : size - 1 - used;
    }
    if (next == args->n)
        return true;
refuse:
    out[0] = '\0';
    return false;
}
