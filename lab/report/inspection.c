/*
 * inspection.c - an inspection as styled lines (see inspection.h).
 */
#include "lab/report/inspection.h"
#include "lab/report/modelled.h"
#include "lab/util/i18n.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

/* A marked instruction's style: where a warp may diverge, where it does not, the others. */
static lab_text_style
mark_style(lab_mark mark)
{
    if (mark == LAB_MARK_COND_BRANCH)
        return LAB_TEXT_MARK_DIVERGE;
    if (mark == LAB_MARK_SELECT)
        return LAB_TEXT_MARK_SELECT;
    return LAB_TEXT_MARK;
}

static void
resources(lab_lineout *o, const lab_inspection *in)
{
    const lab_funcres *k = in->kernel;

    if (!k) {
        lab_lineout_put(o, LAB_TEXT_WARN, _("  ptxas reported no kernel %s"), in->ex->kernel);
        lab_lineout_end(o);
        return;
    }
    lab_lineout_put(o, LAB_TEXT_PLAIN,
                    _("  registers %d   barriers %d   static shared %ld B   dynamic shared 0 B "
                      "(the driver passes none)"),
                    k->regs, k->barriers, k->smem);
    lab_lineout_end(o);
    lab_lineout_put(o, k->stack_frame || k->spill_stores ? LAB_TEXT_WARN : LAB_TEXT_PLAIN,
                    _("  local memory (stack frame) %ld B per thread   spill stores %ld B   spill "
                      "loads %ld B"),
                    k->stack_frame, k->spill_stores, k->spill_loads);
    lab_lineout_end(o);
}

static void
occupancy(lab_lineout *o, const lab_inspection *in)
{
    const lab_occ_result *occ = &in->occ;
    const char *sep = "";

    if (!in->limits) {
        lab_lineout_put(o, LAB_TEXT_WARN, _("  occupancy: no table row for %s (the lab knows:"),
                        in->arch);
        for (size_t i = 0; i < lab_occupancy_arch_count(); i++)
            lab_lineout_put(o, LAB_TEXT_WARN, " %s", lab_occupancy_arch_at(i)->arch);
        lab_lineout_put(o, LAB_TEXT_WARN, ")");
        lab_lineout_end(o);
        return;
    }
    if (!in->has_occ)
        return;
    if (*in->block_from)
        lab_lineout_put(o, LAB_TEXT_PLAIN,
                        _("  occupancy at block %u (%d warps; your %s) on %s (%s): %d blocks/SM, "
                          "%d of %d warps = %.0f%%"),
                        in->block, occ->warps_per_block, in->block_from, in->arch,
                        in->limits->example, occ->blocks_per_sm, occ->active_warps,
                        in->limits->max_warps_per_sm, 100.0 * occ->occupancy);
    else
        lab_lineout_put(o, LAB_TEXT_PLAIN,
                        _("  occupancy at block %u (%d warps) on %s (%s): %d blocks/SM, %d of %d "
                          "warps = %.0f%%"),
                        in->block, occ->warps_per_block, in->arch, in->limits->example,
                        occ->blocks_per_sm, occ->active_warps, in->limits->max_warps_per_sm,
                        100.0 * occ->occupancy);
    lab_lineout_end(o);
    if (occ->why) {
        lab_lineout_put(o, LAB_TEXT_BAD, _("  cannot launch: %s"), occ->why);
        lab_lineout_end(o);
    }
    lab_lineout_put(o, LAB_TEXT_PLAIN, _("  blocks each resource allows:"));
    for (int i = 0; i < LAB_OCC_LIMIT_COUNT; i++) {
        if (occ->limit_blocks[i] == INT_MAX)
            continue;
        lab_lineout_put(o, LAB_TEXT_PLAIN, "%s %s %d", sep, lab_occ_limit_names[i],
                        occ->limit_blocks[i]);
        sep = ",";
    }
    lab_lineout_put(o, LAB_TEXT_PLAIN, _("; limited by"));
    sep = "";
    for (int i = 0; i < LAB_OCC_LIMIT_COUNT; i++)
        if (occ->limited_by[i]) {
            lab_lineout_put(o, LAB_TEXT_PLAIN, "%s %s", sep, lab_occ_limit_names[i]);
            sep = _(" and");
        }
    lab_lineout_end(o);
}

static void
mix(lab_lineout *o, const char *what, const lab_mix *m)
{
    lab_lineout_put(o, LAB_TEXT_PLAIN, _("  %s: %zu instructions"), what, m->total);
    for (int i = 1; i < LAB_MARK_COUNT; i++)
        lab_lineout_put(o, LAB_TEXT_PLAIN, _(", %zu %s"), m->marks[i], lab_marks[i].name);
    lab_lineout_end(o);
}

/* "ran 64 times, diverged 0 times" and the style that goes with it. */
static lab_text_style
run_words(const lab_branch_run *r, char *buf, size_t size)
{
    snprintf(buf, size,
             r->divergent ? ngettext("ran %llu time, diverged %llu",
                                     "ran %llu times, diverged %llu", r->runs)
                          : ngettext("ran %llu time, diverged %llu: uniform",
                                     "ran %llu times, diverged %llu: uniform", r->runs),
             (unsigned long long)r->runs, (unsigned long long)r->divergent);
    return r->divergent ? LAB_TEXT_MARK_DIVERGE : LAB_TEXT_GOOD;
}

/* One warning line: what the simulator's run could not give, and why. */
static void
missing(lab_lineout *o, const char *what, const char *why)
{
    lab_lineout_put(o, LAB_TEXT_WARN, "%s: %s", what, why);
    lab_lineout_end(o);
}

/* What the simulator saw of each source line's conditional branches (inspect.h). */
static void
branch_runs(lab_lineout *o, const lab_inspection *in)
{
    char words[160];

    if (in->no_runs)
        return;
    if (!in->has_runs) {
        missing(o, _("Branches on the simulator: not available"), in->runs_why);
        return;
    }
    lab_lineout_put(o, LAB_TEXT_PLAIN,
                    _("Branches on the simulator (n = %lu; counted once per warp and pass):"),
                    in->runs_size);
    lab_lineout_end(o);
    if (!in->nruns) {
        lab_lineout_put(o, LAB_TEXT_PLAIN, _("  no conditional branch of your file ran"));
        lab_lineout_end(o);
    }
    for (size_t i = 0; i < in->nruns; i++) {
        const lab_branch_run *r = &in->runs[i];
        lab_text_style style = run_words(r, words, sizeof(words));
        lab_lineout_put(o, LAB_TEXT_PLAIN, _("  line %d"), r->line);
        if (r->branches > 1)
            lab_lineout_put(o, LAB_TEXT_PLAIN,
                            ngettext(" (%u branch)", " (%u branches)", r->branches), r->branches);
        lab_lineout_put(o, style, ": %s", words);
        lab_lineout_end(o);
    }
}

/* Why the kernel is as fast as it is without a GPU: the performance model's times at the timing
 * size, and what bounds each (inspect.h), laid out as a grading on the simulator shows them. */
static void
model(lab_lineout *o, const lab_inspection *in)
{
    if (in->no_model || (!in->has_model && !in->model_why[0]))
        return;
    if (!in->has_model) {
        missing(o, _("Speed on the simulator: not modelled"), in->model_why);
        return;
    }
    lab_lineout_put(o, LAB_TEXT_PLAIN,
                    _("Speed on the simulator: what bounds each kernel (modelled, not measured)"));
    lab_lineout_end(o);
    lab_modelled_layout(o, &in->model);
}

/* Every line of the file, numbered. */
static void
source(lab_lineout *o, const lab_inspection *in, const lab_buf *src)
{
    const char *text;
    size_t len;

    lab_lineout_end(o);
    lab_lineout_put(o, LAB_TEXT_TITLE, _("Source %s"), in->file);
    lab_lineout_end(o);
    for (int n = 1; (text = lab_source_line(src->buf, n, &len)); n++) {
        o->kind = LAB_LINE_SOURCE;
        o->source_line = n;
        lab_lineout_put(o, LAB_TEXT_SOURCE, "%5d | %.*s", n, (int)len, text);
        lab_lineout_end(o);
    }
}

/* The kernel's instructions; before each run of one source line, that line. */
static void
listing(lab_lineout *o, const lab_inspection *in, const lab_listing *l, const lab_buf *src,
        const char *title)
{
    const char *last_file = NULL;
    int last_line = -1;

    lab_lineout_end(o);
    lab_lineout_put(o, LAB_TEXT_TITLE, "%s", title);
    lab_lineout_end(o);
    for (size_t i = 0; i < l->n; i++) {
        const lab_insn *x = &l->v[i];
        bool own = lab_inspect_is_own_file(in, x->file);
        if (in->kernel && strcmp(x->function, in->kernel->name))
            continue;
        if (x->file != last_file || x->line != last_line) {
            size_t len = 0;
            const char *text = own ? lab_source_line(src->buf, x->line, &len) : NULL;
            if (text) {
                o->kind = LAB_LINE_SOURCE;
                o->source_line = x->line;
                lab_lineout_put(o, LAB_TEXT_SOURCE, "%5d | %.*s", x->line, (int)len, text);
                lab_lineout_end(o);
            } else if (x->file) {
                lab_lineout_put(o, LAB_TEXT_DIM, "      | (%s:%d)",
                                strrchr(x->file, '/') ? strrchr(x->file, '/') + 1 : x->file,
                                x->line);
                lab_lineout_end(o);
            }
            last_file = x->file;
            last_line = x->line;
        }
        o->kind = LAB_LINE_INSN;
        o->source_line = own ? x->line : 0;
        o->marked = x->mark != LAB_MARK_NONE;
        if (x->offset >= 0)
            lab_lineout_put(o, LAB_TEXT_PLAIN, "        %04lx  ", x->offset);
        else
            lab_lineout_put(o, LAB_TEXT_PLAIN, "        ");
        if (x->mark)
            lab_lineout_put(o, mark_style(x->mark), "%-44s <- %s", x->text,
                            lab_marks[x->mark].label);
        else
            lab_lineout_put(o, LAB_TEXT_PLAIN, "%s", x->text);
        lab_lineout_end(o);
        /* beside the static mark, what the simulator saw of this line's branches */
        const lab_branch_run *r = x->mark == LAB_MARK_COND_BRANCH && own && in->has_runs
                                      ? lab_inspection_branch_run(in, x->line)
                                      : NULL;
        if (r) {
            char words[160];
            lab_text_style style = run_words(r, words, sizeof(words));
            lab_lineout_put(o, style, _("              on the simulator, line %d: %s"), x->line,
                            words);
            lab_lineout_end(o);
        }
    }
}

int
lab_inspection_layout(const lab_inspection *in, const lab_inspection_layout_opts *opts,
                      lab_line_fn fn, void *arg)
{
    lab_buf src = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    lab_lineout o;
    int rc;

    lab_lineout_init(&o, fn, arg);
    lab_lineout_put(&o, LAB_TEXT_BOLD, "%s", in->ex->id);
    lab_lineout_put(&o, LAB_TEXT_PLAIN, _("  %s  on %s"), in->file, in->arch);
    lab_lineout_end(&o);
    lab_lineout_put(&o, LAB_TEXT_PLAIN, _("Kernel %s%s%s"), in->ex->kernel, in->kernel ? ", " : "",
                    in->kernel ? in->kernel->name : "");
    lab_lineout_end(&o);
    resources(&o, in);
    occupancy(&o, in);
    lab_lineout_put(&o, LAB_TEXT_PLAIN, _("Instruction mix of the kernel"));
    lab_lineout_end(&o);
    mix(&o, "PTX ", &in->ptx_mix);
    if (in->has_sass) {
        mix(&o, "SASS", &in->sass_mix);
    } else {
        lab_lineout_put(&o, LAB_TEXT_WARN, _("  SASS: not available: %s"), in->sass_why);
        lab_lineout_end(&o);
    }
    branch_runs(&o, in);
    model(&o, in);
    if (opts->source || opts->listing != LAB_INSPECTION_SUMMARY)
        lab_buf_read_file(&src, in->file, &err); /* unreadable: no source lines */
    if (opts->source)
        source(&o, in, &src);
    if (opts->listing == LAB_INSPECTION_PTX)
        listing(&o, in, &in->ptx, &src, _("PTX (nvcc -ptx -lineinfo), source lines interleaved"));
    else if (opts->listing == LAB_INSPECTION_SASS && in->has_sass)
        listing(&o, in, &in->sass, &src, _("SASS (nvdisasm -g), source lines interleaved"));
    rc = o.rc;
    lab_buf_release(&src);
    lab_lineout_release(&o);
    return rc;
}

/* --- two inspections side by side -------------------------------------------------------- */

static void
diff_row(lab_lineout *o, const char *what, double a, double b)
{
    char x[32], y[32];

    snprintf(x, sizeof(x), "%.0f", a);
    snprintf(y, sizeof(y), "%.0f", b);
    lab_lineout_put(o, LAB_TEXT_PLAIN, "  ");
    lab_lineout_pad(o, LAB_TEXT_PLAIN, what, 22);
    lab_lineout_put(o, LAB_TEXT_PLAIN, " %12s %12s  %s", x, y,
                    a == b  ? ""
                    : b > a ? _("up")
                            : _("down"));
    lab_lineout_end(o);
}

int
lab_inspection_diff_layout(const lab_inspection *a, const lab_inspection *b, lab_line_fn fn,
                           void *arg)
{
    const lab_mix *ma = a->has_sass && b->has_sass ? &a->sass_mix : &a->ptx_mix;
    const lab_mix *mb = a->has_sass && b->has_sass ? &b->sass_mix : &b->ptx_mix;
    lab_lineout o;
    int rc;

    lab_lineout_init(&o, fn, arg);
    lab_lineout_put(&o, LAB_TEXT_PLAIN, _("Diff on %s: A = %s (%s)"), a->arch, a->file,
                    a->ex->kernel);
    lab_lineout_end(&o);
    lab_lineout_put(&o, LAB_TEXT_PLAIN, "             B = %s (%s)", b->file, b->ex->kernel);
    lab_lineout_end(&o);
    lab_lineout_put(&o, LAB_TEXT_PLAIN, "  %-22s %12s %12s", "", "A", "B");
    lab_lineout_end(&o);
    if (a->kernel && b->kernel) {
        diff_row(&o, _("registers"), a->kernel->regs, b->kernel->regs);
        diff_row(&o, _("static shared (B)"), (double)a->kernel->smem, (double)b->kernel->smem);
        diff_row(&o, _("local (B/thread)"), (double)a->kernel->stack_frame,
                 (double)b->kernel->stack_frame);
        diff_row(&o, _("spill stores (B)"), (double)a->kernel->spill_stores,
                 (double)b->kernel->spill_stores);
    }
    if (a->has_occ && b->has_occ) {
        diff_row(&o, _("blocks per SM"), a->occ.blocks_per_sm, b->occ.blocks_per_sm);
        diff_row(&o, /* xgettext:no-c-format */ _("occupancy (%)"), 100 * a->occ.occupancy,
                 100 * b->occ.occupancy);
    }
    lab_lineout_put(&o, LAB_TEXT_PLAIN, _("  instruction mix (%s)"),
                    ma == &a->sass_mix ? "SASS" : "PTX");
    lab_lineout_end(&o);
    diff_row(&o, _("instructions"), (double)ma->total, (double)mb->total);
    for (int i = 1; i < LAB_MARK_COUNT; i++)
        diff_row(&o, lab_marks[i].name, (double)ma->marks[i], (double)mb->marks[i]);
    rc = o.rc;
    lab_lineout_release(&o);
    return rc;
}
