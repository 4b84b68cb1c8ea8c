/*
 * cmd-demo.c - `cudalab demo CHAPTER [--json] [--save FILE]`: run a chapter's
 * demo on the GPU and print what it measured (--save also keeps the report): each section's text,
 * its table, and its chart (a horizontal bar chart, or a heat map of x by y), then the notes. The
 * renderers know nothing of any chapter: they draw whatever the report's sections hold
 * (lab/core/demo.h).
 */
#include "lab/cli/cli.h"
#include "lab/core/demo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BAR_WIDTH 40
#define TEXT_WIDTH 78
#define CELL_WIDTH 9
#define KEY_DECIMALS 6 /* to tell heat-map keys apart */

/* Shades from the lowest value to the highest (the heat map without colour). */
static const char shades[] = " .:-=+*#%@";
/* Background colours from cool to hot (256-colour palette), when stdout is a terminal. */
static const char *const heat_sgr[] = {
    "48;5;21",  "48;5;27",  "48;5;33",  "48;5;39",  "48;5;45",
    "48;5;226", "48;5;220", "48;5;214", "48;5;208", "48;5;196"
};
_Static_assert(ARRAY_SIZE(heat_sgr) == sizeof(shades) - 1, "one colour per shade");

/* Decimals for a column's numbers: none when all are whole, else by the largest magnitude. */
static int
column_decimals(const lab_demo_section *s, size_t col)
{
    double most = 0;
    bool whole = true;

    for (size_t r = 0; r < s->nrows; r++) {
        const lab_demo_cell *c = lab_demo_cell_at(s, r, col);
        if (c->kind != LAB_DEMO_CELL_NUMBER)
            continue;
        whole = whole && c->num == floor(c->num);
        most = fabs(c->num) > most ? fabs(c->num) : most;
    }
    return whole || most >= 1000 ? 0 : most >= 10 ? 1 : 2;
}

static void
format_number(double v, int decimals, char *buf, size_t size)
{
    snprintf(buf, size, "%.*f", decimals, v);
}

static void
format_cell(const lab_demo_cell *c, int decimals, char *buf, size_t size)
{
    if (c->kind == LAB_DEMO_CELL_STRING)
        snprintf(buf, size, "%s", c->str);
    else if (c->kind == LAB_DEMO_CELL_NUMBER)
        format_number(c->num, decimals, buf, size);
    else
        snprintf(buf, size, "-");
}

static void
column_header(const lab_demo_column *c, char *buf, size_t size)
{
    if (*c->unit)
        snprintf(buf, size, "%s (%s)", c->name, c->unit);
    else
        snprintf(buf, size, "%s", c->name);
}

/* A paragraph, wrapped at TEXT_WIDTH on spaces. */
static void
print_wrapped(const char *text)
{
    const char *p = text;

    while (*p) {
        size_t len = strcspn(p, "\n");
        if (len > TEXT_WIDTH) {
            size_t cut = TEXT_WIDTH;
            while (cut > 0 && p[cut] != ' ')
                cut--;
            len = cut ? cut : TEXT_WIDTH;
        }
        printf("%.*s\n", (int)len, p);
        p += len;
        while (*p == ' ' || *p == '\n')
            p++;
    }
}

static void
print_table(const lab_demo_section *s)
{
    size_t width[64] = { 0 };
    int dec[64];
    size_t ncols = s->ncolumns < ARRAY_SIZE(width) ? s->ncolumns : ARRAY_SIZE(width);
    char text[256];

    for (size_t c = 0; c < ncols; c++) {
        column_header(&s->columns[c], text, sizeof(text));
        width[c] = strlen(text);
        dec[c] = column_decimals(s, c);
        for (size_t r = 0; r < s->nrows; r++) {
            format_cell(lab_demo_cell_at(s, r, c), dec[c], text, sizeof(text));
            width[c] = strlen(text) > width[c] ? strlen(text) : width[c];
        }
    }
    for (size_t c = 0; c < ncols; c++) {
        column_header(&s->columns[c], text, sizeof(text));
        printf("  %-*s", c + 1 < ncols ? (int)width[c] : 0, text); /* no trailing blanks */
    }
    printf("\n");
    for (size_t r = 0; r < s->nrows; r++) {
        for (size_t c = 0; c < ncols; c++) {
            const lab_demo_cell *cell = lab_demo_cell_at(s, r, c);
            format_cell(cell, dec[c], text, sizeof(text));
            if (cell->kind == LAB_DEMO_CELL_STRING)
                printf("  %-*s", c + 1 < ncols ? (int)width[c] : 0, text);
            else
                printf("  %*s", (int)width[c], text);
        }
        printf("\n");
    }
}

static void
print_bars(const lab_cli *cli, const lab_demo_section *s)
{
    const lab_demo_chart *ch = &s->chart;
    int dl = column_decimals(s, ch->label), dv = column_decimals(s, ch->value);
    size_t label_width = 0;
    double max = 0;
    char text[256];

    for (size_t r = 0; r < s->nrows; r++) {
        const lab_demo_cell *v = lab_demo_cell_at(s, r, ch->value);
        format_cell(lab_demo_cell_at(s, r, ch->label), dl, text, sizeof(text));
        label_width = strlen(text) > label_width ? strlen(text) : label_width;
        if (v->kind == LAB_DEMO_CELL_NUMBER && v->num > max)
            max = v->num;
    }
    printf("\n  %s%s%s\n", lab_cli_sgr(cli, "1"), s->columns[ch->value].name, lab_cli_reset(cli));
    for (size_t r = 0; r < s->nrows; r++) {
        const lab_demo_cell *v = lab_demo_cell_at(s, r, ch->value);
        int n = 0;

        format_cell(lab_demo_cell_at(s, r, ch->label), dl, text, sizeof(text));
        printf("  %-*s |", (int)label_width, text);
        if (v->kind != LAB_DEMO_CELL_NUMBER) {
            printf(" (none)\n");
            continue;
        }
        if (max > 0 && v->num > 0)
            n = (int)lround(v->num / max * BAR_WIDTH);
        printf("%s", lab_cli_sgr(cli, "36"));
        for (int i = 0; i < n; i++)
            putchar('#');
        format_number(v->num, dv, text, sizeof(text));
        printf("%s %s%s%s\n", lab_cli_reset(cli), text, *s->columns[ch->value].unit ? " " : "",
               s->columns[ch->value].unit);
    }
}

/* Distinct values of column col, in order of first appearance. */
static size_t
distinct(const lab_demo_section *s, size_t col, const lab_demo_cell **out, size_t max)
{
    size_t n = 0;

    for (size_t r = 0; r < s->nrows && n < max; r++) {
        const lab_demo_cell *c = lab_demo_cell_at(s, r, col);
        char a[128], b[128];
        bool seen = false;

        format_cell(c, KEY_DECIMALS, a, sizeof(a));
        for (size_t i = 0; i < n && !seen; i++) {
            format_cell(out[i], KEY_DECIMALS, b, sizeof(b));
            seen = !strcmp(a, b);
        }
        if (!seen)
            out[n++] = c;
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

    format_cell(x, KEY_DECIMALS, xs, sizeof(xs));
    format_cell(y, KEY_DECIMALS, ys, sizeof(ys));
    for (size_t r = 0; r < s->nrows; r++) {
        format_cell(lab_demo_cell_at(s, r, s->chart.x), KEY_DECIMALS, a, sizeof(a));
        format_cell(lab_demo_cell_at(s, r, s->chart.y), KEY_DECIMALS, b, sizeof(b));
        if (!strcmp(a, xs) && !strcmp(b, ys))
            return lab_demo_cell_at(s, r, s->chart.value);
    }
    return NULL;
}

static void
print_heatmap(const lab_cli *cli, const lab_demo_section *s)
{
    const lab_demo_chart *ch = &s->chart;
    const lab_demo_cell *xs[32], *ys[32];
    size_t nx = distinct(s, ch->x, xs, ARRAY_SIZE(xs)), ny = distinct(s, ch->y, ys, ARRAY_SIZE(ys));
    int dx = column_decimals(s, ch->x), dy = column_decimals(s, ch->y);
    int dv = column_decimals(s, ch->value);
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
    printf("\n  %s%s%s by %s (rows) and %s (columns); blank: no value\n", lab_cli_sgr(cli, "1"),
           s->columns[ch->value].name, lab_cli_reset(cli), s->columns[ch->y].name,
           s->columns[ch->x].name);
    printf("  %*s", CELL_WIDTH - 2, "");
    for (size_t i = 0; i < nx; i++) {
        format_cell(xs[i], dx, text, sizeof(text));
        printf(" %*s", CELL_WIDTH, text);
    }
    printf("\n");
    for (size_t j = 0; j < ny; j++) {
        format_cell(ys[j], dy, text, sizeof(text));
        printf("  %*s", CELL_WIDTH - 2, text);
        for (size_t i = 0; i < nx; i++) {
            const lab_demo_cell *v = heat_value(s, xs[i], ys[j]);
            size_t shade = 0;
            if (!v || v->kind != LAB_DEMO_CELL_NUMBER) {
                printf(" %*s", CELL_WIDTH, "");
                continue;
            }
            if (hi > lo)
                shade = (size_t)lround((v->num - lo) / (hi - lo) * (double)(sizeof(shades) - 2));
            format_number(v->num, dv, text, sizeof(text));
            if (cli->color)
                printf(" %s%*s%s", lab_cli_sgr(cli, heat_sgr[shade]), CELL_WIDTH, text,
                       lab_cli_reset(cli));
            else
                printf(" %c%*s", shades[shade], CELL_WIDTH - 1, text);
        }
        printf("\n");
    }
    format_number(lo, dv, text, sizeof(text));
    printf("  scale: '%c' %s ... '%c' ", shades[0], text, shades[sizeof(shades) - 2]);
    format_number(hi, dv, text, sizeof(text));
    printf("%s %s\n", text, s->columns[ch->value].unit);
}

static void
print_report(const lab_cli *cli, const lab_demo_report *r)
{
    printf("%sdemo %s%s on %s (%s)\n", lab_cli_sgr(cli, "1"), r->chapter, lab_cli_reset(cli),
           *r->device ? r->device : "no device", r->backend);
    if (strcmp(r->status, "ok"))
        printf("%s: %s\n", !strcmp(r->status, "no_gpu") ? "no GPU" : "error", r->reason);
    for (size_t i = 0; i < r->nsections; i++) {
        const lab_demo_section *s = &r->sections[i];
        printf("\n%s%s%s\n", lab_cli_sgr(cli, "1;4"), s->title, lab_cli_reset(cli));
        if (s->text)
            print_wrapped(s->text);
        if (s->ncolumns)
            print_table(s);
        if (s->chart.kind == LAB_DEMO_CHART_BARS)
            print_bars(cli, s);
        else if (s->chart.kind == LAB_DEMO_CHART_HEATMAP)
            print_heatmap(cli, s);
    }
    if (r->nnotes)
        printf("\n");
    for (size_t i = 0; i < r->nnotes; i++)
        printf("note: %s\n", r->notes[i]);
}

static int
demo_run(lab_cli *cli, int argc, char **argv)
{
    const char *chapter = NULL, *save = NULL;
    lab_err err = LAB_ERR_INIT;
    lab_demo_run r;
    int status;

    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--json"))
            cli->json = true;
        else if (!strcmp(argv[i], "--save") && i + 1 < argc)
            save = argv[++i];
        else if (argv[i][0] == '-' || chapter)
            return lab_cli_error("demo: unexpected argument '%s'", argv[i]);
        else
            chapter = argv[i];
    }
    if (!chapter)
        return lab_cli_error("usage: cudalab demo CHAPTER [--json] [--save FILE]");
    lab_demo_run_init(&r);
    if (lab_demo_run_chapter(cli->lab, chapter, NULL, &r, &err) < 0) {
        status = lab_cli_error("%s", err.msg);
        if (r.errout.len)
            fprintf(stderr, "%s", r.errout.buf);
        goto out;
    }
    if (r.steps.len)
        fprintf(stderr, "%s", r.steps.buf);
    if (save && lab_write_file(save, r.json.buf, r.json.len, &err) < 0) {
        status = lab_cli_error("%s", err.msg);
        goto out;
    }
    if (cli->json)
        printf("%s\n", r.json.buf);
    else
        print_report(cli, &r.report);
    status = strcmp(r.report.status, "ok") ? LAB_EXIT_VERDICT : LAB_EXIT_OK;
out:
    lab_demo_run_release(&r);
    return status;
}

const lab_cmd lab_cmd_demo = {
    .name = "demo",
    .args = "CHAPTER [--json] [--save FILE]",
    .help = "run a chapter's demo on the GPU and show what it measured",
    .run = demo_run,
};
