/*
 * textwidth.c - terminal columns of UTF-8 text (textwidth.h).  One character at a time:
 * mbrtowc decodes it, wcwidth gives its columns; what the locale cannot decode counts one
 * column a byte.  Every table, progress line and pager of the lab lays out through here.
 */
#include <string.h>
#include <wchar.h>

#include "lab/util/textwidth.h"

/* The first character of s (len bytes) into *wc: its bytes, or 0 where the locale cannot
 * decode it. */
static size_t
decode(const char *s, size_t len, wchar_t *wc)
{
    mbstate_t st;
    size_t n;

    memset(&st, 0, sizeof(st));
    n = mbrtowc(wc, s, len, &st);
    return n == (size_t)-1 || n == (size_t)-2 ? 0 : n;
}

/* The next character of s (len > 0 bytes): its bytes into *bytes, its columns returned. */
static size_t
next_char(const char *s, size_t len, size_t *bytes)
{
    wchar_t wc;
    size_t n = decode(s, len, &wc);
    int w;

    if (n == 0) {
        *bytes = 1;
        return 1;
    }
    *bytes = n;
    w = wcwidth(wc);
    return w < 0 ? 1 : (size_t)w;
}

/* Code points a line may break before: Han ideographs and kana. */
static const struct {
    wchar_t first, last;
} breakable[] = {
    { 0x3040, 0x30ff },   /* hiragana, katakana */
    { 0x3400, 0x4dbf },   /* CJK extension A */
    { 0x4e00, 0x9fff },   /* CJK unified ideographs */
    { 0xf900, 0xfaff },   /* CJK compatibility ideographs */
    { 0x20000, 0x3ffff }, /* CJK extensions B and after */
};

bool
lab_text_breaks_before(const char *s, size_t len)
{
    wchar_t wc;

    if (!decode(s, len, &wc))
        return false;
    for (size_t i = 0; i < sizeof(breakable) / sizeof(breakable[0]); i++)
        if (wc >= breakable[i].first && wc <= breakable[i].last)
            return true;
    return false;
}

/* Hangul: jamo, compatibility jamo, syllables. */
static const struct {
    wchar_t first, last;
} hangul[] = {
    { 0x1100, 0x11ff },
    { 0x3130, 0x318f },
    { 0xac00, 0xd7af },
};

bool
lab_text_spaceless(const char *s, size_t len)
{
    wchar_t wc;

    if (!decode(s, len, &wc) || wcwidth(wc) != 2)
        return false;
    for (size_t i = 0; i < sizeof(hangul) / sizeof(hangul[0]); i++)
        if (wc >= hangul[i].first && wc <= hangul[i].last)
            return false;
    return true;
}

size_t
lab_text_width(const char *s, size_t len)
{
    size_t cols = 0;

    for (size_t i = 0, n; i < len; i += n)
        cols += next_char(s + i, len - i, &n);
    return cols;
}

size_t
lab_text_widths(const char *s)
{
    return lab_text_width(s, strlen(s));
}

size_t
lab_text_cut(const char *s, size_t len, size_t cols)
{
    size_t used = 0, i = 0;

    while (i < len) {
        size_t n, w = next_char(s + i, len - i, &n);
        if (used + w > cols)
            break;
        used += w;
        i += n;
    }
    return i;
}

static int
add_spaces(lab_buf *b, size_t n)
{
    int rc = 0;

    while (n-- > 0 && rc == 0)
        rc = lab_buf_addch(b, ' ');
    return rc;
}

int
lab_text_pad(lab_buf *b, const char *s, size_t cols)
{
    size_t len = lab_text_cut(s, strlen(s), cols);
    int rc;

    if ((rc = lab_buf_add(b, s, len)) < 0)
        return rc;
    return add_spaces(b, cols - lab_text_width(s, len));
}

int
lab_text_pad_left(lab_buf *b, const char *s, size_t cols)
{
    size_t w = lab_text_widths(s);
    int rc;

    if (w < cols && (rc = add_spaces(b, cols - w)) < 0)
        return rc;
    return lab_buf_adds(b, s);
}

int
lab_text_fit(lab_buf *b, const char *s, size_t cols)
{
    size_t len = strlen(s);
    int rc;

    if (lab_text_width(s, len) <= cols)
        return lab_buf_add(b, s, len);
    if (cols < 3)
        return lab_buf_add(b, "...", cols);
    if ((rc = lab_buf_add(b, s, lab_text_cut(s, len, cols - 3))) < 0)
        return rc;
    return lab_buf_adds(b, "...");
}
