/*
 * demo.c - a demo report as styled lines (see demo.h): header, per section
 * the paragraph, the table (each column with its own decimals), the bar
 * chart (the largest value BAR_WIDTH wide) or the heat map (x values as
 * columns, y as rows, both sorted, shaded from the lowest value to the
 * highest), then the notes.
 */
#include "lab/report/demo.h"
#include "lab/util/i18n.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/util/textwidth.h"

#define BAR_WIDTH 40
#define TEXT_WIDTH 78
#define CELL_WIDTH 9
#define KEY_DECIMALS 6 /* to tell heat-map keys apart */
#define MAX_COLUMNS 64
#define MAX_KEYS 32

const char lab_demo_shade_chars[LAB_TEXT_SHADES + 1] = " .:-=+*#%@";

/* A demo's English words in the learner's language: the demos mark their titles, paragraphs,
 * column names and string cells N_(); a name or code is no message and stays as it is.  Never
 * "" to gettext, which would give the catalog's header. */
static const char *
tr(const char *s)
{
    return s && *s ? _(s) : s;
}

/* A cell as it is shown: a string translated, a number with dec decimals. */
static const char *
cell_text(const lab_demo_cell *c, int dec, char *buf, size_t size)
{
    if (c->kind == LAB_DEMO_CELL_STRING)
        return tr(c->str);
    lab_demo_format_cell(c, dec, buf, size);
    return buf;
}

static void
column_header(const lab_demo_column *c, char *buf, size_t size)
{
    if (*c->unit)
        snprintf(buf, size, "%s (%s)", tr(c->name), tr(c->unit)); /* "threads" is a word */
    else
        snprintf(buf, size, "%s", tr(c->name));
}

static void
table(lab_lineout *o, const lab_demo_section *s)
{
    size_t width[MAX_COLUMNS] = { 0 };
    int dec[MAX_COLUMNS];
    size_t ncols = s->ncolumns < MAX_COLUMNS ? s->ncolumns : MAX_COLUMNS;
    char text[256];

    for (size_t c = 0; c < ncols; c++) {
        column_header(&s->columns[c], text, sizeof(text));
        width[c] = lab_text_widths(text);
        dec[c] = lab_demo_column_decimals(s, c);
        for (size_t r = 0; r < s->nrows; r++) {
            const char *t = cell_text(lab_demo_cell_at(s, r, c), dec[c], text, sizeof(text));
            width[c] = lab_text_widths(t) > width[c] ? lab_text_widths(t) : width[c];
        }
    }
    for (size_t c = 0; c < ncols; c++) {
        column_header(&s->columns[c], text, sizeof(text));
        lab_lineout_put(o, LAB_TEXT_BOLD, "  ");
        lab_lineout_pad(o, LAB_TEXT_BOLD, text, c + 1 < ncols ? width[c] : 0); /* no trailing
                                                                                  blanks */
    }
    lab_lineout_end(o);
    for (size_t r = 0; r < s->nrows; r++) {
        for (size_t c = 0; c < ncols; c++) {
            const lab_demo_cell *cell = lab_demo_cell_at(s, r, c);
            const char *t = cell_text(cell, dec[c], text, sizeof(text));
            lab_lineout_put(o, LAB_TEXT_PLAIN, "  ");
            if (cell->kind == LAB_DEMO_CELL_STRING)
                lab_lineout_pad(o, LAB_TEXT_PLAIN, t, c + 1 < ncols ? width[c] : 0);
            else
                lab_lineout_pad_left(o, LAB_TEXT_PLAIN, t, width[c]);
        }
        lab_lineout_end(o);
    }
}

static void
bars(lab_lineout *o, const lab_demo_section *s)
{
    const lab_demo_chart *ch = &s->chart;
    int dl = lab_demo_column_decimals(s, ch->label), dv = lab_demo_column_decimals(s, ch->value);
    const char *unit = tr(s->columns[ch->value].unit);
    size_t label_width = 0;
    double max = 0;
    char text[256];

    for (size_t r = 0; r < s->nrows; r++) {
        const lab_demo_cell *v = lab_demo_cell_at(s, r, ch->value);
        const char *t = cell_text(lab_demo_cell_at(s, r, ch->label), dl, text, sizeof(text));
        label_width = lab_text_widths(t) > label_width ? lab_text_widths(t) : label_width;
        if (v->kind == LAB_DEMO_CELL_NUMBER && v->num > max)
            max = v->num;
    }
    lab_lineout_end(o);
    lab_lineout_put(o, LAB_TEXT_PLAIN, "  ");
    lab_lineout_put(o, LAB_TEXT_BOLD, "%s", tr(s->columns[ch->value].name));
    lab_lineout_end(o);
    for (size_t r = 0; r < s->nrows; r++) {
        const lab_demo_cell *v = lab_demo_cell_at(s, r, ch->value);
        const char *t = cell_text(lab_demo_cell_at(s, r, ch->label), dl, text, sizeof(text));
        int n = 0;

        lab_lineout_put(o, LAB_TEXT_PLAIN, "  ");
        lab_lineout_pad(o, LAB_TEXT_PLAIN, t, label_width);
        lab_lineout_put(o, LAB_TEXT_PLAIN, " |");
        if (v->kind != LAB_DEMO_CELL_NUMBER) {
            lab_lineout_put(o, LAB_TEXT_PLAIN, _(" (none)"));
            lab_lineout_end(o);
            continue;
        }
        if (max > 0 && v->num > 0)
            n = (int)lround(v->num / max * BAR_WIDTH);
        lab_lineout_put(o, LAB_TEXT_BAR, "%.*s", n, "########################################");
        lab_demo_format_cell(v, dv, text, sizeof(text));
        lab_lineout_put(o, LAB_TEXT_PLAIN, " %s%s%s", text, *unit ? " " : "", unit);
        lab_lineout_end(o);
    }
}

/* Distinct values of column col, in order of first appearance. */
static size_t
distinct(const lab_demo_section *s, size_t col, const lab_demo_cell **keys, size_t max)
{
    size_t n = 0;

    for (size_t r = 0; r < s->nrows && n < max; r++) {
        const lab_demo_cell *c = lab_demo_cell_at(s, r, col);
        char a[128], b[128];
        bool seen = false;

        lab_demo_format_cell(c, KEY_DECIMALS, a, sizeof(a));
        for (size_t i = 0; i < n && !seen; i++) {
            lab_demo_format_cell(keys[i], KEY_DECIMALS, b, sizeof(b));
            seen = !strcmp(a, b);
        }
        if (!seen)
            keys[n++] = c;
    }
    return n;
}

static int
cmp_cells(const void *pa, const void *pb)
{
    const lab_demo_cell *a = *(const lab_demo_cell *const *)pa;
    const lab_demo_cell *b = *(const lab_demo_cell *const *)pb;

    if (a->kind == LAB_DEMO_CELL_NUMBER && b->kind == LAB_DEMO_CELL_NUMBER)
        return (a->num > b->num) - (a->num < b->num);
    return 0;
}

/* The value at (x, y), or NULL when no row has it. */
static const lab_demo_cell *
heat_value(const lab_demo_section *s, const lab_demo_cell *x, const lab_demo_cell *y)
{
    char xs[128], ys[128], a[128], b[128];

    lab_demo_format_cell(x, KEY_DECIMALS, xs, sizeof(xs));
    lab_demo_format_cell(y, KEY_DECIMALS, ys, sizeof(ys));
    for (size_t r = 0; r < s->nrows; r++) {
        lab_demo_format_cell(lab_demo_cell_at(s, r, s->chart.x), KEY_DECIMALS, a, sizeof(a));
        lab_demo_format_cell(lab_demo_cell_at(s, r, s->chart.y), KEY_DECIMALS, b, sizeof(b));
        if (!strcmp(a, xs) && !strcmp(b, ys))
            return lab_demo_cell_at(s, r, s->chart.value);
    }
    return NULL;
}

static void
heatmap(lab_lineout *o, const lab_demo_section *s, bool shade_chars)
{
    const lab_demo_chart *ch = &s->chart;
    const lab_demo_cell *xs[MAX_KEYS], *ys[MAX_KEYS];
    size_t nx = distinct(s, ch->x, xs, MAX_KEYS), ny = distinct(s, ch->y, ys, MAX_KEYS);
    int dx = lab_demo_column_decimals(s, ch->x), dy = lab_demo_column_decimals(s, ch->y);
    int dv = lab_demo_column_decimals(s, ch->value);
    double lo = INFINITY, hi = -INFINITY;
    char text[128];

    qsort(xs, nx, sizeof(xs[0]), cmp_cells);
    qsort(ys, ny, sizeof(ys[0]), cmp_cells);
    for (size_t r = 0; r < s->nrows; r++) {
        const lab_demo_cell *v = lab_demo_cell_at(s, r, ch->value);
        if (v->kind == LAB_DEMO_CELL_NUMBER) {
            lo = v->num < lo ? v->num : lo;
            hi = v->num > hi ? v->num : hi;
        }
    }
    lab_lineout_end(o);
    lab_lineout_put(o, LAB_TEXT_PLAIN, "  ");
    lab_lineout_put(o, LAB_TEXT_BOLD, "%s", tr(s->columns[ch->value].name));
    lab_lineout_put(o, LAB_TEXT_PLAIN, _(" by %s (rows) and %s (columns); blank: no value"),
                    tr(s->columns[ch->y].name), tr(s->columns[ch->x].name));
    lab_lineout_end(o);
    lab_lineout_put(o, LAB_TEXT_PLAIN, "  %*s", CELL_WIDTH - 2, "");
    for (size_t i = 0; i < nx; i++) {
        lab_demo_format_cell(xs[i], dx, text, sizeof(text));
        lab_lineout_put(o, LAB_TEXT_BOLD, " ");
        lab_lineout_pad_left(o, LAB_TEXT_BOLD, text, CELL_WIDTH);
    }
    lab_lineout_end(o);
    for (size_t j = 0; j < ny; j++) {
        lab_demo_format_cell(ys[j], dy, text, sizeof(text));
        lab_lineout_put(o, LAB_TEXT_BOLD, "  ");
        lab_lineout_pad_left(o, LAB_TEXT_BOLD, text, CELL_WIDTH - 2);
        for (size_t i = 0; i < nx; i++) {
            const lab_demo_cell *v = heat_value(s, xs[i], ys[j]);
            size_t shade = 0;
            if (!v || v->kind != LAB_DEMO_CELL_NUMBER) {
                lab_lineout_put(o, LAB_TEXT_PLAIN, " %*s", CELL_WIDTH, "");
                continue;
            }
            if (hi > lo)
                shade = (size_t)lround((v->num - lo) / (hi - lo) * (LAB_TEXT_SHADES - 1));
            lab_demo_format_cell(v, dv, text, sizeof(text));
            lab_lineout_put(o, LAB_TEXT_PLAIN, " ");
            if (shade_chars)
                lab_lineout_put(o, (lab_text_style)(LAB_TEXT_HEAT + shade), "%c%*s",
                                lab_demo_shade_chars[shade], CELL_WIDTH - 1, text);
            else
                lab_lineout_put(o, (lab_text_style)(LAB_TEXT_HEAT + shade), "%*s", CELL_WIDTH,
                                text);
        }
        lab_lineout_end(o);
    }
    lab_demo_format_cell(&(lab_demo_cell){ LAB_DEMO_CELL_NUMBER, NULL, lo }, dv, text,
                         sizeof(text));
    lab_lineout_put(o, LAB_TEXT_PLAIN, _("  scale: '%c' %s ... '%c' "), lab_demo_shade_chars[0],
                    text, lab_demo_shade_chars[LAB_TEXT_SHADES - 1]);
    lab_demo_format_cell(&(lab_demo_cell){ LAB_DEMO_CELL_NUMBER, NULL, hi }, dv, text,
                         sizeof(text));
    lab_lineout_put(o, LAB_TEXT_PLAIN, "%s %s", text, tr(s->columns[ch->value].unit));
    lab_lineout_end(o);
}

void
lab_demo_model_label(const lab_demo_report *r, lab_buf *out)
{
    lab_buf_printf(out,
                   _("On the PTX simulator: the times and rates are modelled for an %s from the "
                     "simulator's exact counts, not measured"),
                   r->model_gpu);
    if (r->model_kernels > 0)
        lab_buf_printf(out,
                       ngettext(" (the model's median error: %.0f%% on %d kernel of the course)",
                                " (the model's median error: %.0f%% on %d kernels of the course)",
                                r->model_kernels),
                       100 * r->model_error, r->model_kernels);
    /* TRANSLATORS: the full stop that ends the sentence above, after its part in parentheses */
    lab_buf_adds(out, _("."));
}

int
lab_demo_layout(const lab_demo_report *r, const lab_demo_layout_opts *opts, lab_line_fn fn,
                void *arg)
{
    lab_lineout o;
    lab_buf line = LAB_BUF_INIT;
    size_t width = opts->width > 0 ? (size_t)opts->width : TEXT_WIDTH;
    int rc;

    lab_lineout_init(&o, fn, arg);
    lab_lineout_put(&o, LAB_TEXT_BOLD, _("demo %s"), r->chapter);
    lab_lineout_put(&o, LAB_TEXT_PLAIN, _(" on %s (%s)"), *r->device ? r->device : _("no device"),
                    r->backend);
    lab_lineout_end(&o);
    if (lab_demo_is_modelled(r)) {
        lab_demo_model_label(r, &line);
        lab_lineout_wrap(&o, LAB_TEXT_WARN, line.buf, width);
    }
    if (strcmp(r->status, "ok")) {
        lab_buf_reset(&line);
        char why[512];
        if (lab_buf_printf(&line, !strcmp(r->status, "no_gpu") ? _("no GPU: %s") : _("error: %s"),
                           lab_fmtmsg_show(&r->reason_msg, r->reason, why, sizeof(why))) < 0)
            o.rc = LAB_ENOMEM;
        lab_lineout_wrap(&o, LAB_TEXT_WARN, line.buf, width);
    }
    for (size_t i = 0; i < r->nsections; i++) {
        const lab_demo_section *s = &r->sections[i];
        lab_lineout_end(&o);
        lab_lineout_put(&o, LAB_TEXT_TITLE, "%s", tr(s->title));
        if (s->modelled) /* every table with modelled times says so, where it is read */
            lab_lineout_put(&o, LAB_TEXT_WARN, _(" [times modelled for an %s, not measured]"),
                            r->model_gpu);
        lab_lineout_end(&o);
        if (s->text)
            lab_lineout_wrap(&o, LAB_TEXT_PLAIN, tr(s->text), width);
        if (s->ncolumns)
            table(&o, s);
        if (s->chart.kind == LAB_DEMO_CHART_BARS)
            bars(&o, s);
        else if (s->chart.kind == LAB_DEMO_CHART_HEATMAP)
            heatmap(&o, s, opts->shade_chars);
    }
    if (r->nnotes)
        lab_lineout_end(&o);
    for (size_t i = 0; i < r->nnotes; i++) {
        char note[1024];
        lab_buf_reset(&line);
        if (lab_buf_printf(&line, _("note: %s"),
                           lab_fmtmsg_show(&r->note_msgs[i], r->notes[i], note, sizeof(note))) < 0)
            o.rc = LAB_ENOMEM;
        lab_lineout_wrap(&o, LAB_TEXT_PLAIN, line.buf, width);
    }
    rc = o.rc;
    lab_buf_release(&line);
    lab_lineout_release(&o);
    return rc;
}
