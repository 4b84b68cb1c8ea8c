/*
 * doc.c - styled lines, and Markdown laid out into them with md4c.
 *
 * md4c calls back block by block; inline text collects in one paragraph
 * (bytes and their styles) that is wrapped at the width when its block ends,
 * behind the prefix of the enclosing quotes and list items.  Code blocks are
 * kept as written (no wrap) and highlighted; table cells are collected and
 * the table is drawn with padded columns when it ends.
 */
#include "lab/menu/doc.h"
#include "lab/catalog/catalog.h"
#include "lab/catalog/translation.h"

#include <ctype.h>
#include <md4c.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/util/buf.h"
#include "lab/util/err.h"
#include "lab/util/strvec.h"
#include "lab/util/textwidth.h"

void
lab_doc_release(lab_doc *d)
{
    for (size_t i = 0; i < d->nlines; i++) {
        free(d->lines[i].text);
        free(d->lines[i].style);
    }
    free(d->lines);
    d->lines = NULL;
    d->nlines = d->alloc = 0;
}

size_t
lab_doc_width(const char *text, size_t len)
{
    return lab_text_width(text, len);
}

/* Appends a line of len bytes with their styles (style NULL: all in fill). */
static int
add_styled(lab_doc *d, const char *text, const unsigned char *style, lab_style fill, size_t len)
{
    lab_doc_line *l;

    if (d->nlines == d->alloc) {
        size_t n = d->alloc ? 2 * d->alloc : 64;
        lab_doc_line *p = realloc(d->lines, n * sizeof(*p));
        if (!p)
            return LAB_ENOMEM;
        d->lines = p;
        d->alloc = n;
    }
    l = &d->lines[d->nlines];
    l->text = malloc(len + 1);
    l->style = malloc(len + 1);
    if (!l->text || !l->style) {
        free(l->text);
        free(l->style);
        return LAB_ENOMEM;
    }
    memcpy(l->text, text, len);
    l->text[len] = '\0';
    if (style)
        memcpy(l->style, style, len);
    else
        memset(l->style, fill, len);
    l->len = len;
    d->nlines++;
    return 0;
}

int
lab_doc_add_styled(lab_doc *d, const char *text, const unsigned char *style, size_t len)
{
    return add_styled(d, text, style, LAB_STYLE_TEXT, len);
}

int
lab_doc_add_wrapped(lab_doc *d, lab_style style, const char *text, int width, const char *indent)
{
    lab_buf line = LAB_BUF_INIT;
    size_t w = width > 20 ? (size_t)width : 20, in = strlen(indent);
    const char *p = text;
    int rc = 0;

    while (*p && rc == 0) {
        size_t room = p == text ? w : w - in, len = strlen(p), cut = len;
        if (lab_doc_width(p, len) > room) {
            size_t fits = lab_text_cut(p, len, room);
            cut = fits;
            while (cut > 0 && p[cut] != ' ')
                cut--;
            if (!cut) /* no space to break at (Chinese): break where the room ends */
                cut = fits ? fits : lab_text_cut(p, len, 2);
        }
        lab_buf_reset(&line);
        if (p != text)
            lab_buf_adds(&line, indent);
        lab_buf_add(&line, p, cut);
        rc = lab_doc_add(d, style, line.buf);
        p += cut;
        while (*p == ' ')
            p++;
    }
    lab_buf_release(&line);
    return rc;
}

int
lab_doc_add(lab_doc *d, lab_style style, const char *text)
{
    return add_styled(d, text, NULL, style, strlen(text));
}

int
lab_doc_add_text(lab_doc *d, lab_style style, const char *text)
{
    int rc = 0;

    for (const char *p = text; *p && rc == 0;) {
        size_t len = strcspn(p, "\n");
        rc = add_styled(d, p, NULL, style, len);
        p += len + (p[len] == '\n');
    }
    return rc;
}

int
lab_doc_addf(lab_doc *d, lab_style style, const char *fmt, ...)
{
    va_list ap;
    char *s;
    int rc;

    va_start(ap, fmt);
    s = lab_vformat(fmt, ap);
    va_end(ap);
    rc = s ? lab_doc_add(d, style, s) : LAB_ENOMEM;
    free(s);
    return rc;
}

/* --- CUDA highlighting ------------------------------------------------------ */

static const char *const keywords[] = {
    "__global__",
    "__device__",
    "__host__",
    "__shared__",
    "__constant__",
    "__syncthreads",
    "__syncwarp",
    "__shfl_down_sync",
    "__shfl_xor_sync",
    "__restrict__",
    "threadIdx",
    "blockIdx",
    "blockDim",
    "gridDim",
    "warpSize",
    "volatile",
    "unsigned",
    "int",
    "float",
    "double",
    "char",
    "void",
    "const",
    "if",
    "else",
    "for",
    "while",
    "return",
    "struct",
    "static",
    "template",
    "typename",
    "size_t",
    "bool",
    "long",
    "#include",
    "#define",
    "atomicAdd",
    "dim3",
};

static bool
is_keyword(const char *s, size_t n)
{
    for (size_t i = 0; i < ARRAY_SIZE(keywords); i++)
        if (strlen(keywords[i]) == n && !memcmp(keywords[i], s, n))
            return true;
    return false;
}

static bool
ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '#';
}

/* Styles one line of code: keywords, // comments, the rest as code. */
static void
highlight(const char *s, size_t n, unsigned char *style)
{
    size_t i = 0;

    memset(style, LAB_STYLE_CODE, n);
    while (i < n) {
        if (s[i] == '/' && i + 1 < n && s[i + 1] == '/') {
            memset(style + i, LAB_STYLE_COMMENT, n - i);
            return;
        }
        if (ident_char(s[i])) {
            size_t j = i;
            while (j < n && ident_char(s[j]))
                j++;
            if (is_keyword(s + i, j - i))
                memset(style + i, LAB_STYLE_KEYWORD, j - i);
            i = j;
        } else {
            i++;
        }
    }
}

int
lab_doc_code(lab_doc *d, const char *text, size_t len, const char *indent)
{
    size_t start = 0, ind = strlen(indent);

    while (start < len) {
        const char *nl = memchr(text + start, '\n', len - start);
        size_t n = nl ? (size_t)(nl - text) - start : len - start;
        char *line = malloc(ind + n + 1);
        unsigned char *style = malloc(ind + n + 1);
        int rc;

        if (!line || !style) {
            free(line);
            free(style);
            return LAB_ENOMEM;
        }
        memcpy(line, indent, ind);
        memcpy(line + ind, text + start, n);
        memset(style, LAB_STYLE_CODE, ind);
        highlight(line + ind, n, style + ind);
        rc = add_styled(d, line, style, 0, ind + n);
        free(line);
        free(style);
        if (rc < 0)
            return rc;
        start += n + 1;
    }
    return 0;
}

/* --- Markdown ----------------------------------------------------------------- */

#define MAX_DEPTH 16

typedef struct layout {
    lab_doc *doc;
    int width;
    int rc;
    /* the paragraph being collected */
    lab_buf text;
    unsigned char *style;
    size_t style_alloc;
    /* spans and blocks we are inside */
    int strong, emph, code_span, heading, quote, table;
    bool soft_break; /* a line break of the source, laid out once the next text is known */
    bool in_code;
    bool need_blank;
    /* lists: marker of each level ("- " or "3. ") and its next number */
    int nlists;
    bool ordered[MAX_DEPTH];
    unsigned next[MAX_DEPTH];
    bool item_start; /* the next flushed line is an item's first */
    /* tables: cells row by row */
    lab_strvec cells;
    size_t ncols, cur_col;
} layout;

static lab_style
span_style(const layout *ly)
{
    if (ly->heading)
        return LAB_STYLE_HEADING;
    if (ly->code_span)
        return LAB_STYLE_CODE;
    if (ly->strong)
        return LAB_STYLE_STRONG;
    if (ly->emph)
        return LAB_STYLE_EMPH;
    if (ly->quote)
        return LAB_STYLE_QUOTE;
    return LAB_STYLE_TEXT;
}

static void
fail(layout *ly, int rc)
{
    if (rc < 0 && ly->rc == 0)
        ly->rc = rc;
}

static void
collect(layout *ly, const char *s, size_t n, lab_style st)
{
    if (ly->text.len + n + 1 > ly->style_alloc) {
        size_t a = 2 * (ly->text.len + n + 64);
        unsigned char *p = realloc(ly->style, a);
        if (!p) {
            fail(ly, LAB_ENOMEM);
            return;
        }
        ly->style = p;
        ly->style_alloc = a;
    }
    memset(ly->style + ly->text.len, st, n);
    fail(ly, lab_buf_add(&ly->text, s, n));
}

static void
blank(layout *ly)
{
    lab_doc *d = ly->doc;

    if (d->nlines && d->lines[d->nlines - 1].len)
        fail(ly, lab_doc_add(d, LAB_STYLE_TEXT, ""));
    ly->need_blank = false;
}

/* The prefix of the next line: quote bars, then list indentation. */
static void
prefix(layout *ly, lab_buf *out)
{
    for (int i = 0; i < ly->quote; i++)
        lab_buf_adds(out, "| ");
    for (int i = 0; i < ly->nlists; i++) {
        bool last = i == ly->nlists - 1;
        if (last && ly->item_start) {
            if (ly->ordered[i]) {
                char num[16];
                snprintf(num, sizeof(num), "%u. ", ly->next[i] - 1);
                lab_buf_printf(out, "%-4s", num);
            } else {
                lab_buf_adds(out, "  - ");
            }
        } else {
            lab_buf_adds(out, "    ");
        }
    }
}

/* Wraps the collected paragraph at the width, behind the prefix. */
static void
flush(layout *ly)
{
    const char *s = ly->text.buf;
    size_t n = ly->text.len, start = 0;

    if (ly->need_blank)
        blank(ly);
    while (start < n) {
        lab_buf line = LAB_BUF_INIT;
        size_t pre, avail, end = start, last_space = 0, w = 0;
        unsigned char *style;

        while (start < n && s[start] == ' ')
            start++;
        if (start >= n)
            break;
        prefix(ly, &line);
        ly->item_start = false;
        pre = line.len;
        avail = ly->width > (int)pre + 10 ? (size_t)ly->width - pre : 10;
        end = start;
        while (end < n) {
            size_t bytes = 1;
            while (end + bytes < n && ((unsigned char)s[end + bytes] & 0xc0) == 0x80)
                bytes++;
            if (s[end] == ' ' || (end > start && lab_text_breaks_before(s + end, bytes)))
                last_space = end; /* a line may break at a space, or before a Hanzi */
            w += lab_text_width(s + end, bytes);
            if (w > avail && last_space > start)
                break;
            end += bytes;
        }
        if (end < n && last_space > start)
            end = last_space;
        lab_buf_add(&line, s + start, end - start);
        style = malloc(line.len + 1);
        if (!style) {
            lab_buf_release(&line);
            fail(ly, LAB_ENOMEM);
            return;
        }
        memset(style, ly->quote ? LAB_STYLE_QUOTE : LAB_STYLE_TEXT, pre);
        memcpy(style + pre, ly->style + start, end - start);
        fail(ly, add_styled(ly->doc, line.buf, style, 0, line.len));
        free(style);
        lab_buf_release(&line);
        start = end;
    }
    lab_buf_reset(&ly->text);
}

static void
flush_table(layout *ly)
{
    size_t ncols = ly->ncols ? ly->ncols : 1, nrows = ly->cells.n / ncols;
    size_t *w = calloc(ncols, sizeof(*w));

    if (!w) {
        fail(ly, LAB_ENOMEM);
        return;
    }
    for (size_t i = 0; i < ly->cells.n; i++) {
        size_t cw = lab_doc_width(ly->cells.v[i], strlen(ly->cells.v[i]));
        if (cw > w[i % ncols])
            w[i % ncols] = cw;
    }
    if (ly->need_blank)
        blank(ly);
    for (size_t r = 0; r < nrows; r++) {
        lab_buf line = LAB_BUF_INIT;
        lab_buf_adds(&line, "  ");
        for (size_t c = 0; c < ncols; c++) {
            const char *cell = ly->cells.v[r * ncols + c];
            size_t pad = w[c] - lab_doc_width(cell, strlen(cell));
            lab_buf_printf(&line, "%s%s%*s", c ? " | " : "", cell, (int)pad, "");
        }
        fail(ly, lab_doc_add(ly->doc, r == 0 ? LAB_STYLE_HEADING : LAB_STYLE_TABLE, line.buf));
        if (r == 0) {
            lab_buf_reset(&line);
            lab_buf_adds(&line, "  ");
            for (size_t c = 0; c < ncols; c++) {
                lab_buf_adds(&line, c ? "-+-" : "");
                for (size_t k = 0; k < w[c]; k++)
                    lab_buf_addch(&line, '-');
            }
            fail(ly, lab_doc_add(ly->doc, LAB_STYLE_TABLE, line.buf));
        }
        lab_buf_release(&line);
    }
    free(w);
    lab_strvec_release(&ly->cells);
    ly->ncols = 0;
    ly->need_blank = true;
}

static int
enter_block(MD_BLOCKTYPE type, void *detail, void *arg)
{
    layout *ly = arg;

    switch (type) {
    case MD_BLOCK_H:
        if (ly->text.len)
            flush(ly);
        ly->heading = ((MD_BLOCK_H_DETAIL *)detail)->level;
        blank(ly);
        break;
    case MD_BLOCK_QUOTE:
        ly->quote++;
        break;
    case MD_BLOCK_UL:
    case MD_BLOCK_OL:
        if (ly->text.len)
            flush(ly);
        if (ly->nlists < MAX_DEPTH) {
            ly->ordered[ly->nlists] = type == MD_BLOCK_OL;
            ly->next[ly->nlists] = type == MD_BLOCK_OL ? ((MD_BLOCK_OL_DETAIL *)detail)->start : 1;
        }
        ly->nlists++;
        break;
    case MD_BLOCK_LI:
        if (ly->text.len)
            flush(ly);
        if (ly->nlists > 0 && ly->nlists <= MAX_DEPTH)
            ly->next[ly->nlists - 1]++;
        ly->item_start = true;
        break;
    case MD_BLOCK_CODE:
        ly->in_code = true;
        break;
    case MD_BLOCK_TABLE:
        ly->table = 1;
        break;
    case MD_BLOCK_TH:
    case MD_BLOCK_TD:
        lab_buf_reset(&ly->text);
        break;
    default:
        break;
    }
    return 0;
}

static int
leave_block(MD_BLOCKTYPE type, void *detail, void *arg)
{
    layout *ly = arg;

    (void)detail;
    switch (type) {
    case MD_BLOCK_H:
        flush(ly);
        ly->heading = 0;
        if (ly->doc->nlines && ly->doc->lines[ly->doc->nlines - 1].len) {
            lab_doc_line *h = &ly->doc->lines[ly->doc->nlines - 1];
            lab_buf u = LAB_BUF_INIT;
            for (size_t i = lab_doc_width(h->text, h->len); i > 0; i--)
                lab_buf_addch(&u, '=');
            fail(ly, lab_doc_add(ly->doc, LAB_STYLE_HEADING, u.buf));
            lab_buf_release(&u);
        }
        ly->need_blank = true;
        break;
    case MD_BLOCK_P:
        flush(ly);
        if (!ly->nlists)
            ly->need_blank = true;
        break;
    case MD_BLOCK_LI:
        if (ly->text.len)
            flush(ly);
        break;
    case MD_BLOCK_UL:
    case MD_BLOCK_OL:
        if (ly->text.len)
            flush(ly);
        ly->nlists--;
        ly->need_blank = true;
        break;
    case MD_BLOCK_QUOTE:
        if (ly->text.len)
            flush(ly);
        ly->quote--;
        ly->need_blank = true;
        break;
    case MD_BLOCK_HR:
        blank(ly);
        fail(ly, lab_doc_add(ly->doc, LAB_STYLE_DIM, "  ----"));
        ly->need_blank = true;
        break;
    case MD_BLOCK_CODE:
        if (ly->need_blank)
            blank(ly);
        fail(ly, lab_doc_code(ly->doc, ly->text.buf, ly->text.len, "    "));
        lab_buf_reset(&ly->text);
        ly->in_code = false;
        ly->need_blank = true;
        break;
    case MD_BLOCK_TH:
    case MD_BLOCK_TD:
        fail(ly, lab_strvec_push(&ly->cells, ly->text.buf));
        lab_buf_reset(&ly->text);
        ly->cur_col++;
        break;
    case MD_BLOCK_TR:
        if (!ly->ncols)
            ly->ncols = ly->cur_col;
        while (ly->cur_col && ly->cur_col < ly->ncols) {
            fail(ly, lab_strvec_push(&ly->cells, ""));
            ly->cur_col++;
        }
        ly->cur_col = 0;
        break;
    case MD_BLOCK_TABLE:
        flush_table(ly);
        ly->table = 0;
        break;
    default:
        break;
    }
    return 0;
}

static int
enter_span(MD_SPANTYPE type, void *detail, void *arg)
{
    layout *ly = arg;

    (void)detail;
    if (type == MD_SPAN_STRONG)
        ly->strong++;
    else if (type == MD_SPAN_EM)
        ly->emph++;
    else if (type == MD_SPAN_CODE)
        ly->code_span++;
    return 0;
}

static int
leave_span(MD_SPANTYPE type, void *detail, void *arg)
{
    layout *ly = arg;

    (void)detail;
    if (type == MD_SPAN_STRONG)
        ly->strong--;
    else if (type == MD_SPAN_EM)
        ly->emph--;
    else if (type == MD_SPAN_CODE)
        ly->code_span--;
    return 0;
}

/* Whether the paragraph collected so far ends in a character of a script without spaces. */
static bool
spaceless_at_end(const lab_buf *b)
{
    size_t i = b->len;

    while (i > 0 && (b->buf[i - 1] & 0xc0) == 0x80)
        i--;
    return i > 0 && lab_text_spaceless(b->buf + i - 1, b->len - i + 1);
}

static int
text(MD_TEXTTYPE type, const MD_CHAR *s, MD_SIZE n, void *arg)
{
    layout *ly = arg;

    if (ly->in_code) {
        fail(ly, lab_buf_add(&ly->text, s, n));
        return 0;
    }
    if (type == MD_TEXT_SOFTBR) {
        ly->soft_break = true;
        return 0;
    }
    /* a source line broken between two characters of a script without spaces (Chinese) joins
     * them with nothing; every other break is a space */
    if (ly->soft_break &&
        !(type == MD_TEXT_NORMAL && spaceless_at_end(&ly->text) && lab_text_spaceless(s, n)))
        collect(ly, " ", 1, LAB_STYLE_TEXT);
    ly->soft_break = false;
    if (type == MD_TEXT_BR)
        collect(ly, " ", 1, LAB_STYLE_TEXT);
    else if (type == MD_TEXT_NULLCHAR)
        collect(ly, "?", 1, LAB_STYLE_TEXT);
    else if (type == MD_TEXT_ENTITY && n == 6 && !memcmp(s, "&nbsp;", 6))
        collect(ly, " ", 1, span_style(ly));
    else
        collect(ly, s, n, span_style(ly));
    return 0;
}

int
lab_doc_markdown(lab_doc *d, const char *src, size_t len, int width)
{
    layout ly = { .doc = d, .width = width, .cells = LAB_STRVEC_INIT };
    MD_PARSER parser = {
        .abi_version = 0,
        .flags = MD_DIALECT_GITHUB | MD_FLAG_NOHTML,
        .enter_block = enter_block,
        .leave_block = leave_block,
        .enter_span = enter_span,
        .leave_span = leave_span,
        .text = text,
    };
    int rc;

    size_t marker = lab_translation_marker_len(src, len); /* a translation's first line */

    lab_buf_init(&ly.text);
    rc = md_parse(src + marker, (MD_SIZE)(len - marker), &parser, &ly);
    if (ly.text.len)
        flush(&ly);
    lab_buf_release(&ly.text);
    lab_strvec_release(&ly.cells);
    free(ly.style);
    if (ly.rc < 0)
        return ly.rc;
    return rc ? LAB_EPARSE : 0;
}

int
lab_doc_file(lab_doc *d, const char *path, bool code, int width)
{
    lab_buf text = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    int rc;

    if (lab_buf_read_regular(&text, path, LAB_CATALOG_TEXT_CAP, &err) < 0)
        rc = lab_doc_add(d, LAB_STYLE_BAD, err.msg);
    else if (code)
        rc = lab_doc_code(d, text.buf, text.len, "");
    else
        rc = lab_doc_markdown(d, text.buf, text.len, width);
    lab_buf_release(&text);
    return rc;
}
