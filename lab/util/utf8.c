/*
 * utf8.c - invalid UTF-8 and control characters made safe (see utf8.h).
 */
#include "lab/util/utf8.h"
#include "lab/util/err.h"

#include <stdint.h>

#define REPLACEMENT "\xef\xbf\xbd" /* U+FFFD */

/* The length of the valid UTF-8 sequence at s (at most len bytes), its code point in *cp; 0 when
 * s starts none (RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF). */
static size_t
sequence(const unsigned char *s, size_t len, uint32_t *cp)
{
    static const struct {
        unsigned char mask, lead; /* the lead byte's fixed bits */
        uint32_t min;             /* the smallest code point of this length: shorter is overlong */
    } forms[] = {
        { 0x80, 0x00, 0 }, { 0xe0, 0xc0, 0x80 }, { 0xf0, 0xe0, 0x800 }, { 0xf8, 0xf0, 0x10000 }
    };
    size_t n;

    if (s[0] < 0x80) { /* most text */
        *cp = s[0];
        return 1;
    }
    for (n = 1; n < ARRAY_SIZE(forms) && (s[0] & forms[n].mask) != forms[n].lead; n++)
        ;
    if (n == ARRAY_SIZE(forms) || n + 1 > len)
        return 0;
    *cp = s[0] & (uint32_t)(0x7f >> (n ? n + 1 : 0));
    for (size_t i = 1; i <= n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        *cp = *cp << 6 | (s[i] & 0x3f);
    }
    if (*cp < forms[n].min || *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff))
        return 0;
    return n + 1;
}

bool
lab_utf8_valid(const char *s, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    uint32_t cp;

    for (size_t i = 0, n; i < len; i += n)
        if (u[i] < 0x80)
            n = 1;
        else if (!(n = sequence(u + i, len - i, &cp)))
            return false;
    return true;
}

/* A control character a terminal must not receive: C0 and DEL but tab (and newline when kept),
 * and C1. */
static bool
is_control(uint32_t cp, unsigned flags)
{
    if (cp == '\t' || (cp == '\n' && (flags & LAB_UTF8_KEEP_NEWLINE)))
        return false;
    return cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0);
}

/* The one walk both cleanings take: valid characters copied, the rest replaced; controls
 * shown when show is set. */
static int
walk(lab_buf *out, const char *s, size_t len, bool show, unsigned flags)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0, from = 0, n;
    uint32_t cp;
    int rc = 0;

    while (rc == 0 && i < len) {
        if (u[i] >= 0x20 && u[i] < 0x7f) { /* printable ASCII: most text */
            i++;
            continue;
        }
        if ((n = sequence(u + i, len - i, &cp)) && !(show && is_control(cp, flags))) {
            i += n;
            continue;
        }
        rc = lab_buf_add(out, s + from, i - from);
        if (rc == 0 && n && cp < 0x20) /* U+2400 + c: the Control Pictures block */
            rc = lab_buf_add(out, (const char[]){ (char)0xe2, (char)0x90, (char)(0x80 + cp) }, 3);
        else if (rc == 0 && n && cp == 0x7f) /* U+2421 SYMBOL FOR DELETE */
            rc = lab_buf_adds(out, "\xe2\x90\xa1");
        else if (rc == 0)
            rc = lab_buf_adds(out, REPLACEMENT);
        i += n ? n : 1;
        from = i;
    }
    if (rc == 0)
        rc = lab_buf_add(out, s + from, len - from);
    return rc;
}

int
lab_utf8_clean(lab_buf *out, const char *s, size_t len)
{
    return walk(out, s, len, false, 0);
}

int
lab_utf8_shown(lab_buf *out, const char *s, size_t len, unsigned flags)
{
    return walk(out, s, len, true, flags);
}

bool
lab_utf8_needs_showing(const char *s, size_t len, unsigned flags)
{
    const unsigned char *u = (const unsigned char *)s;
    uint32_t cp;

    for (size_t i = 0, n; i < len; i += n)
        if (!(n = sequence(u + i, len - i, &cp)) || is_control(cp, flags))
            return true;
    return false;
}
