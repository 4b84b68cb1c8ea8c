/*
 * lines.c - styled lines (see lines.h): the writer every report uses, and a
 * list that keeps lines.  A kept line's text and styles share one block:
 * text, its NUL, then the style bytes.
 */
#include "lab/report/lines.h"
#include "lab/util/textwidth.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
lab_lines_release(lab_lines *l)
{
    for (size_t i = 0; i < l->n; i++)
        free((char *)l->v[i].text);
    free(l->v);
    l->v = NULL;
    l->n = l->alloc = 0;
}

int
lab_lines_collect(void *lines, const lab_line *line)
{
    lab_lines *l = lines;
    char *block;

    if (l->n == l->alloc) {
        size_t alloc = l->alloc ? 2 * l->alloc : 32;
        lab_line *v = realloc(l->v, alloc * sizeof(*v));
        if (!v)
            return LAB_ENOMEM;
        l->v = v;
        l->alloc = alloc;
    }
    if (!(block = malloc(2 * line->len + 1)))
        return LAB_ENOMEM;
    memcpy(block, line->text, line->len);
    block[line->len] = '\0';
    memcpy(block + line->len + 1, line->styles, line->len);
    l->v[l->n] = *line;
    l->v[l->n].text = block;
    l->v[l->n].styles = (const unsigned char *)block + line->len + 1;
    l->n++;
    return 0;
}

int
lab_lines_replay(const lab_lines *l, size_t from, lab_line_fn fn, void *arg)
{
    int rc = 0;

    for (size_t i = from; i < l->n && rc == 0; i++)
        rc = fn(arg, &l->v[i]);
    return rc;
}

size_t
lab_lines_last_paragraph(const lab_lines *l)
{
    for (size_t i = l->n; i > 0; i--)
        if (l->v[i - 1].len == 0)
            return i;
    return 0;
}

/* --- the writer ------------------------------------------------------------------------ */

void
lab_lineout_init(lab_lineout *o, lab_line_fn fn, void *arg)
{
    *o = (lab_lineout){ .fn = fn, .arg = arg };
    lab_buf_init(&o->text);
    lab_buf_init(&o->styles);
}

void
lab_lineout_release(lab_lineout *o)
{
    lab_buf_release(&o->text);
    lab_buf_release(&o->styles);
}

void
lab_lineout_put(lab_lineout *o, lab_text_style style, const char *fmt, ...)
{
    size_t before = o->text.len;
    va_list ap;

    if (o->rc < 0)
        return;
    va_start(ap, fmt);
    if (lab_buf_vprintf(&o->text, fmt, ap) < 0 ||
        lab_buf_grow(&o->styles, o->text.len - before) < 0)
        o->rc = LAB_ENOMEM;
    va_end(ap);
    if (o->rc < 0)
        return;
    memset(o->styles.buf + o->styles.len, (int)style, o->text.len - before);
    o->styles.len += o->text.len - before;
    o->styles.buf[o->styles.len] = '\0';
}

void
lab_lineout_end(lab_lineout *o)
{
    lab_line line = { o->text.buf,    (const unsigned char *)o->styles.buf,
                      o->text.len,    o->kind,
                      o->source_line, o->marked };

    if (o->rc == 0)
        o->rc = o->fn(o->arg, &line);
    lab_buf_reset(&o->text);
    lab_buf_reset(&o->styles);
    o->kind = LAB_LINE_TEXT;
    o->source_line = 0;
    o->marked = false;
}

void
lab_lineout_pad(lab_lineout *o, lab_text_style style, const char *text, size_t cols)
{
    size_t w = lab_text_widths(text);

    lab_lineout_put(o, style, "%s%*s", text, w < cols ? (int)(cols - w) : 0, "");
}

void
lab_lineout_pad_left(lab_lineout *o, lab_text_style style, const char *text, size_t cols)
{
    size_t w = lab_text_widths(text);

    lab_lineout_put(o, style, "%*s%s", w < cols ? (int)(cols - w) : 0, "", text);
}

void
lab_lineout_text(lab_lineout *o, lab_text_style style, const char *text)
{
    for (const char *p = text; *p;) {
        size_t len = strcspn(p, "\n");
        lab_lineout_put(o, style, "%.*s", (int)len, p);
        lab_lineout_end(o);
        p += len + (p[len] == '\n');
    }
}

void
lab_lineout_flow(lab_lineout *o, lab_text_style style, const char *text, size_t width,
                 size_t indent)
{
    const char *p = text;

    while (*p) {
        size_t col = lab_text_width(o->text.buf, o->text.len), len = strcspn(p, "\n");
        size_t room = width > col ? width - col : 0;
        if (width && lab_text_width(p, len) > room) {
            size_t fits = lab_text_cut(p, len, room), cut = fits;
            /* at a space, or before a Han character: Chinese puts no spaces between its
             * words, and cutting only at the spaces around its Latin words left lines half
             * full (never before its full-width punctuation, which does not start a line) */
            while (cut > 0 && p[cut] != ' ' && !lab_text_breaks_before(p + cut, len - cut))
                cut--;
            while (cut > 0 && p[cut - 1] == ' ')
                cut--;
            /* nothing to cut at: a new line first, unless this one holds only its indent;
             * then as much as fits, by display columns */
            len = cut ? cut : col > indent ? 0 : fits ? fits : len;
        }
        lab_lineout_put(o, style, "%.*s", (int)len, p);
        p += len;
        while (*p == ' ' || *p == '\n')
            p++;
        if (!*p)
            break;
        lab_lineout_end(o);
        lab_lineout_put(o, LAB_TEXT_PLAIN, "%*s", (int)indent, "");
    }
}

void
lab_lineout_wrap(lab_lineout *o, lab_text_style style, const char *text, size_t width)
{
    if (!*text)
        return;
    lab_lineout_flow(o, style, text, width, 0);
    lab_lineout_end(o);
}

void
lab_lines_format_ns(double ns, char *buf, size_t size)
{
    if (ns >= 1e6)
        snprintf(buf, size, "%.2f ms", ns / 1e6);
    else
        snprintf(buf, size, "%.2f us", ns / 1e3);
}
