/*
 * grading.c - a grading as styled lines (see grading.h).
 */
#include "lab/report/grading.h"
#include "lab/report/modelled.h"
#include "lab/util/i18n.h"

#include <stdio.h>
#include <string.h>

#include "lab/util/err.h"

/* A table's column: its heading (marked ones translated when laid out) and its width in display
 * columns. The first is left-aligned, the others right-aligned over the numbers below them. */
typedef struct column {
    const char *name;
    size_t width;
} column;

/* headings, not formats: "% peak" would read as a printf conversion */
static const column kernel_columns[] = {
    { N_("kernel"), 10 },
    { N_("median"), 12 },
    { "CI95", 8 },
    { N_("samples"), 8 },
    { "GB/s", 8 },
    /* xgettext:no-c-format */
    { N_("% peak"), 7 },
    /* xgettext:no-c-format */
    { N_("% copy"), 7 },
    { N_("speedup"), 8 },
};

static const column sweep_columns[] = {
    { N_("block"), 10 }, { N_("median"), 12 }, { "CI95", 8 },        { N_("samples"), 8 },
    { "GB/s", 8 },       { "occupancy", 10 },  { N_("vs best"), 9 },
};

/* The headings' line, each heading padded by display width. */
static void
header(lab_lineout *o, const column *c, size_t n)
{
    lab_lineout_put(o, LAB_TEXT_PLAIN, "  ");
    lab_lineout_pad(o, LAB_TEXT_PLAIN, _(c[0].name), c[0].width);
    for (size_t i = 1; i < n; i++) { /* the unmarked ones (CI95, GB/s) have no translation */
        lab_lineout_put(o, LAB_TEXT_PLAIN, " ");
        lab_lineout_pad_left(o, LAB_TEXT_PLAIN, _(c[i].name), c[i].width);
    }
}

/* The student's case of the second round (new inputs in the same buffers) at c's size, or NULL. */
static const lab_case *
again(const lab_runreport *r, const lab_case *c)
{
    for (size_t i = 0; i < r->ncases; i++)
        if (r->cases[i].round > 1 && r->cases[i].size == c->size &&
            !strcmp(r->cases[i].role, "student") && !strcmp(r->cases[i].block, c->block))
            return &r->cases[i];
    return NULL;
}

/* The student's cases, one row a size: the second round on new inputs in the same buffers in
 * the same row, so that the table keeps its height. */
static void
cases(lab_lineout *o, const lab_runreport *r)
{
    bool shapes = false; /* an exercise run at several block shapes: a column for the shape */
    char detail[512];

    for (size_t i = 0; i < r->ncases; i++)
        shapes |= r->cases[i].block[0] != '\0';
    lab_lineout_put(o, LAB_TEXT_PLAIN, "  ");
    lab_lineout_pad(o, LAB_TEXT_PLAIN, "n", 11);
    if (shapes)
        lab_lineout_pad(o, LAB_TEXT_PLAIN, _("block"), 9);
    lab_lineout_pad(o, LAB_TEXT_PLAIN, _("student"), 11);
    lab_lineout_end(o);
    for (size_t i = 0; i < r->ncases; i++) {
        const lab_case *c = &r->cases[i], *c2;
        if (strcmp(c->role, "student") || c->round > 1)
            continue;
        c2 = c->correct ? again(r, c) : NULL;
        lab_lineout_put(o, LAB_TEXT_PLAIN, "  %-10lu ", c->size);
        if (shapes)
            lab_lineout_put(o, LAB_TEXT_PLAIN, "%-8s ", c->block);
        if (c->printf_cut) { /* not a wrong result: the run was stopped */
            lab_lineout_pad(o, LAB_TEXT_BAD, _("stopped"), 10);
            lab_lineout_put(o, LAB_TEXT_PLAIN, _(" after %.1f MiB of printf output"),
                            c->printf_bytes / (1 << 20));
        } else if (c2 && !c2->correct) {
            lab_lineout_pad(o, LAB_TEXT_BAD, _("wrong"), 10);
            lab_lineout_put(o, LAB_TEXT_PLAIN, _(" on new inputs in the same buffers: %s"),
                            lab_case_detail(c2, detail, sizeof(detail)));
        } else {
            lab_lineout_pad(o, c->correct ? LAB_TEXT_GOOD : LAB_TEXT_BAD,
                            c->correct ? _("ok") : _("wrong"), 10);
            if (!c->correct)
                lab_lineout_put(o, LAB_TEXT_PLAIN, " %s",
                                lab_case_detail(c, detail, sizeof(detail)));
            else if (c2)
                lab_lineout_put(o, LAB_TEXT_DIM, "%s", _(" and again on new inputs"));
        }
        lab_lineout_end(o);
    }
}

static void
capped(lab_lineout *o)
{
    lab_lineout_put(o, LAB_TEXT_DIM, "%s",
                    _("  (stopped at the time cap before the medians settled to +-0.25%)"));
    lab_lineout_end(o);
}

static void
timing(lab_lineout *o, const lab_grading *g)
{
    const lab_size_timing *t = lab_runreport_last_timing(&g->report);
    const lab_kernel_time *base = lab_runreport_time(&g->report, "baseline");

    if (!t)
        return;
    lab_lineout_end(o);
    lab_lineout_put(
        o, LAB_TEXT_PLAIN,
        _("  n = %lu (%.1f MiB)   copy bandwidth measured now: %.0f GB/s   peak %.0f GB/s"),
        t->size, t->bytes / (1 << 20), t->copy_gbps, g->report.peak_gbps);
    lab_lineout_end(o);
    header(o, kernel_columns, ARRAY_SIZE(kernel_columns));
    lab_lineout_end(o);
    for (size_t i = 0; i < t->nkernels; i++) {
        const lab_kernel_time *k = &t->kernels[i];
        char med[32];
        lab_lines_format_ns(k->median_ns, med, sizeof(med));
        lab_lineout_put(o, LAB_TEXT_PLAIN, "  ");
        lab_lineout_pad(o, !strcmp(k->role, "student") ? LAB_TEXT_BOLD : LAB_TEXT_PLAIN, k->role,
                        10);
        lab_lineout_put(o, !strcmp(k->role, "student") ? LAB_TEXT_BOLD : LAB_TEXT_PLAIN,
                        " %12s %7.2f%% %8lu %8.0f %7.1f %7.1f %7.2fx%s", med, 100 * k->ci_rel,
                        k->samples, k->gbps, k->pct_peak, k->pct_copy,
                        base && k->median_ns > 0 ? base->median_ns / k->median_ns : 0,
                        k->cpu ? _("  (CPU)") : "");
        lab_lineout_end(o);
    }
    if (t->capped)
        capped(o);
}

/* A choice exercise's sweep: every shape's time, the fastest and the student's marked. */
static void
sweep(lab_lineout *o, const lab_runreport *r)
{
    const lab_sweep *s = &r->sweep;
    const lab_sweep_row *best = lab_grade_sweep_best(s);

    lab_lineout_end(o);
    lab_lineout_put(o, LAB_TEXT_PLAIN,
                    _("  n = %lu (%.1f MiB moved per launch), every shape timed interleaved"),
                    s->size, s->bytes / (1 << 20));
    lab_lineout_end(o);
    header(o, sweep_columns, ARRAY_SIZE(sweep_columns));
    lab_lineout_end(o);
    for (size_t i = 0; i < s->nrows; i++) {
        const lab_sweep_row *w = &s->rows[i];
        bool mine = !strcmp(w->block, s->choice);
        char med[32], occ[16];
        if (!w->launched) {
            lab_lineout_put(o, LAB_TEXT_PLAIN, "  %-10s %s%s: %s", w->block,
                            mine ? _("<- yours: ") : "", _("cannot be launched"), w->error);
            lab_lineout_end(o);
            continue;
        }
        lab_lines_format_ns(w->median_ns, med, sizeof(med));
        if (w->occupancy >= 0)
            snprintf(occ, sizeof(occ), "%.0f%%", 100 * w->occupancy);
        else
            snprintf(occ, sizeof(occ), "-");
        lab_lineout_put(o, LAB_TEXT_PLAIN, "  ");
        lab_lineout_put(o, mine ? LAB_TEXT_BOLD : LAB_TEXT_PLAIN,
                        "%-10s %12s %7.2f%% %8lu %8.0f %10s %8.3fx%s%s", w->block, med,
                        100 * w->ci_rel, w->samples, w->gbps, occ,
                        best ? w->median_ns / best->median_ns : 0, w == best ? _("  fastest") : "",
                        mine ? _("  <- yours") : "");
        lab_lineout_end(o);
    }
    if (s->capped)
        capped(o);
}

/* The block shapes the table's cases ran at: the exercise's one, or all of them (review D6: a
 * header that named the first of five shapes). */
static void
blocks_text(const lab_exercise *ex, char *buf, size_t size)
{
    size_t len = 0;
    char shapes[160] = "";

    for (size_t i = 0; i < ex->nblocks && len < sizeof(shapes); i++) {
        char one[32];
        int n;
        lab_block_shape_format(&ex->blocks[i], one, sizeof(one));
        n = snprintf(shapes + len, sizeof(shapes) - len, "%s%s", i ? ", " : "", one);
        len = n > 0 ? len + (size_t)n : sizeof(shapes);
    }
    if (!ex->nblocks) /* a manifest always has one; an exercise made in code may not */
        snprintf(shapes, sizeof(shapes), "%u", ex->block);
    snprintf(buf, size, ngettext("block %s", "blocks %s", ex->nblocks ? ex->nblocks : 1), shapes);
}

/* Where it ran: the simulator, or the GPU with the seed and the block. */
static void
backend(lab_lineout *o, const lab_grading *g, const lab_exercise *ex, size_t width)
{
    double seed = g->has_report ? g->report.seed : (double)g->seed;
    const char *mode = g->device.present ? _("forced")
                       : g->has_model    ? _("no GPU: correctness, speed modelled")
                                         : _("no GPU: correctness only");
    char blocks[200], line[640];

    blocks_text(ex, blocks, sizeof(blocks));
    if (!strcmp(g->backend, "sim") && g->sizes_cut[0]) /* review D5: which sizes, as what */
        snprintf(line, sizeof(line),
                 _("PTX simulator (%s), seed %.0f, %s; the simulator runs these sizes smaller, "
                   "the last block's remainder kept: %s"),
                 mode, seed, blocks, g->sizes_cut);
    else if (!strcmp(g->backend, "sim"))
        snprintf(line, sizeof(line), _("PTX simulator (%s), seed %.0f, %s"), mode, seed, blocks);
    else if (g->device.present && ex->choose_block)
        snprintf(line, sizeof(line), _("GPU %s (%s), seed %.0f, block chosen by the file"),
                 g->device.name, g->arch, seed);
    else if (g->device.present)
        snprintf(line, sizeof(line), _("GPU %s (%s), seed %.0f, %s"), g->device.name, g->arch, seed,
                 blocks);
    else
        return;
    /* wrapped: five block shapes, or the sizes cut, do not fit 80 columns in every language */
    lab_lineout_flow(o, LAB_TEXT_PLAIN, line, width, 2);
    lab_lineout_end(o);
    if (g->sim_checked)
        lab_lineout_put(o, LAB_TEXT_DIM, "%s",
                        _("the simulator checked it too: races, barriers, warp masks, bounds"));
    else if (g->sim_skipped[0])
        lab_lineout_put(o, LAB_TEXT_DIM, _("the simulator's checks were skipped: %s"),
                        g->sim_skipped);
    else
        return;
    lab_lineout_end(o);
}

/* The verdict paragraph: the verdict in its style, the cause and the points, wrapped at width
 * under the cause, the points never split nor cut off; then, but after a PASS, what to do next. */
static void
verdict(lab_lineout *o, const lab_grading *g, const lab_exercise *ex, size_t width)
{
    const lab_verdict_info *vi = lab_verdict_describe(g->result.verdict);
    size_t indent = strlen(vi->name) + 2;
    char points[48];

    snprintf(points, sizeof(points), ngettext("%d/%d point", "%d/%d points", ex->points),
             g->result.points, ex->points);
    lab_lineout_put(o, lab_text_verdict_style(g->result.verdict), "%s", vi->name);
    lab_lineout_put(o, LAB_TEXT_PLAIN, "  ");
    lab_lineout_flow(o, LAB_TEXT_PLAIN, g->result.message, width, indent);
    if (width && o->text.len + 3 + strlen(points) > width) {
        lab_lineout_end(o);
        lab_lineout_put(o, LAB_TEXT_PLAIN, "%*s%s", (int)indent, "", points);
    } else {
        lab_lineout_put(o, LAB_TEXT_PLAIN, "   %s", points);
    }
    lab_lineout_end(o);
    if (g->result.verdict == LAB_VERDICT_PASS)
        return;
    lab_lineout_put(o, LAB_TEXT_BOLD, "%s", _("next:"));
    lab_lineout_put(o, LAB_TEXT_PLAIN, " ");
    lab_lineout_flow(o, LAB_TEXT_PLAIN, _(g->result.advice ? g->result.advice : vi->advice), width,
                     strlen(_("next:")) + 1);
    lab_lineout_end(o);
}

int
lab_grading_layout(const lab_grading *g, const lab_exercise *ex, const char *file, size_t width,
                   lab_line_fn fn, void *arg)
{
    lab_lineout o;
    int rc;

    lab_lineout_init(&o, fn, arg);
    lab_lineout_put(&o, LAB_TEXT_BOLD, "%s", ex->id);
    lab_lineout_put(&o, LAB_TEXT_PLAIN, "  %s", file);
    lab_lineout_end(&o);
    backend(&o, g, ex, width);
    if (g->compiler_log.len) {
        lab_lineout_end(&o);
        lab_lineout_text(&o, LAB_TEXT_PLAIN, g->compiler_log.buf);
    }
    if (g->has_report && g->report.ncases) {
        lab_lineout_end(&o);
        cases(&o, &g->report);
    }
    if (g->has_report)
        timing(&o, g);
    if (g->has_report && g->report.sweep.present)
        sweep(&o, &g->report);
    if (g->has_model) {
        lab_lineout_end(&o);
        lab_modelled_layout(&o, &g->model);
    }
    lab_lineout_end(&o);
    verdict(&o, g, ex, width);
    rc = o.rc;
    lab_lineout_release(&o);
    return rc;
}
