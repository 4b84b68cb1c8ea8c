/*
 * inspect.c - the exercise view's Inspect action: what `cudalab inspect`
 * shows (lab/instruments/inspect.h), as a view you move through.
 *
 * `i` builds the student's file (the starter when there is none yet) as
 * work (job.c, lab_inspect: nvcc, ptxas -v, nvdisasm), then the view shows
 * the kernel's resources and occupancy, the instruction mix, the source file
 * with line numbers, and the SASS (or PTX; `v` switches) with the source
 * lines interleaved and the marked instructions highlighted: conditional
 * branches red (a warp may diverge there), selects green (no branch), the
 * others yellow.  Every source line and every instruction is an item: j/k
 * move the cursor, `n`/`N` go to the next/previous marked instruction, Enter
 * on a line of the source goes to its first instruction, Enter on an
 * instruction goes back to its source line.  Without nvdisasm the view shows
 * PTX and says how to get SASS.
 */
#include "lab/menu/menu.h"
#include "lab/instruments/inspect.h"

#include <curses.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What an item of the view is. */
typedef struct inspect_item {
    int line;    /* source line */
    bool source; /* a line of the source file, else an instruction */
    bool marked;
} inspect_item;

typedef struct inspect_state {
    lab_menu_viewjob vj; /* key: the exercise */
    const lab_exercise *ex;
    char file[4096];
    bool starter; /* no work file yet: the starter is shown */
    lab_inspection in;
    bool ptx;           /* show PTX, else SASS */
    inspect_item *info; /* one per item of the view */
    size_t ninfo;
} inspect_state;

static void
inspect_release(void *p)
{
    inspect_state *s = p;

    if (s) {
        lab_inspection_release(&s->in);
        free(s->info);
    }
    free(s);
}

static int
add_item(lab_menu_view *v, inspect_state *s, int line, bool source, bool marked)
{
    inspect_item *p = realloc(s->info, (v->nitems + 1) * sizeof(*p));

    if (!p)
        return LAB_ENOMEM;
    s->info = p;
    s->info[v->nitems] = (inspect_item){ line, source, marked };
    s->ninfo = v->nitems + 1;
    return lab_menu_add_item(v, NULL, false);
}

static lab_style
mark_style(lab_mark mark)
{
    if (mark == LAB_MARK_COND_BRANCH)
        return LAB_STYLE_BAD;
    if (mark == LAB_MARK_SELECT)
        return LAB_STYLE_GOOD;
    return LAB_STYLE_KEYWORD;
}

static void
add_resources(lab_doc *d, const lab_inspection *in)
{
    const lab_funcres *k = in->kernel;
    const lab_occ_result *o = &in->occ;
    lab_buf b = LAB_BUF_INIT;
    const char *sep = "";

    if (!k) {
        lab_doc_addf(d, LAB_STYLE_WARN, "ptxas reported no kernel %s", in->ex->kernel);
        return;
    }
    lab_doc_add(d, LAB_STYLE_HEADING, "Resources (ptxas -v)");
    lab_doc_addf(d, LAB_STYLE_TEXT, "  registers %d   barriers %d   static shared %ld B", k->regs,
                 k->barriers, k->smem);
    lab_doc_addf(d, k->stack_frame || k->spill_stores ? LAB_STYLE_WARN : LAB_STYLE_TEXT,
                 "  local memory %ld B/thread   spill stores %ld B   spill loads %ld B",
                 k->stack_frame, k->spill_stores, k->spill_loads);
    if (!in->limits) {
        lab_doc_addf(d, LAB_STYLE_WARN, "  occupancy: the lab has no limits for %s", in->arch);
        return;
    }
    if (!in->has_occ)
        return;
    lab_doc_addf(d, LAB_STYLE_HEADING, "Occupancy at block %u%s%s%s on %s (%s)", in->block,
                 *in->block_from ? " (your " : "", in->block_from, *in->block_from ? ")" : "",
                 in->arch, in->limits->example);
    lab_doc_addf(d, LAB_STYLE_STRONG, "  %d blocks/SM, %d of %d warps = %.0f%%", o->blocks_per_sm,
                 o->active_warps, in->limits->max_warps_per_sm, 100.0 * o->occupancy);
    if (o->why)
        lab_doc_addf(d, LAB_STYLE_BAD, "  cannot launch: %s", o->why);
    lab_buf_adds(&b, "  limited by");
    for (int i = 0; i < LAB_OCC_LIMIT_COUNT; i++)
        if (o->limited_by[i]) {
            lab_buf_printf(&b, "%s %s", sep, lab_occ_limit_names[i]);
            sep = " and";
        }
    lab_doc_add(d, LAB_STYLE_TEXT, b.buf);
    lab_buf_release(&b);
}

static void
add_mix(lab_doc *d, const char *what, const lab_mix *m)
{
    lab_buf b = LAB_BUF_INIT;

    lab_buf_printf(&b, "  %s %zu instructions:", what, m->total);
    for (int i = 1; i < LAB_MARK_COUNT; i++)
        if (m->marks[i])
            lab_buf_printf(&b, " %zu %s", m->marks[i], lab_marks[i].name);
    lab_doc_add(d, LAB_STYLE_TEXT, b.buf);
    lab_buf_release(&b);
}

static void
add_source(lab_menu_view *v, inspect_state *s, const lab_buf *src)
{
    size_t len;
    const char *text;

    lab_doc_add(&v->doc, LAB_STYLE_TEXT, "");
    lab_doc_addf(&v->doc, LAB_STYLE_HEADING, "Source %s%s  (Enter: its instructions)", s->file,
                 s->starter ? " (the starter: you have no file yet)" : "");
    for (int n = 1; (text = lab_source_line(src->buf, n, &len)); n++) {
        add_item(v, s, n, true, false);
        lab_doc_addf(&v->doc, LAB_STYLE_CODE, "%5d | %.*s", n, (int)len, text);
    }
}

static void
add_listing(lab_menu_view *v, inspect_state *s, const lab_buf *src)
{
    const lab_inspection *in = &s->in;
    const lab_listing *l = s->ptx ? &in->ptx : &in->sass;
    const char *last_file = NULL;
    int last_line = -1;

    lab_doc_add(&v->doc, LAB_STYLE_TEXT, "");
    lab_doc_addf(&v->doc, LAB_STYLE_HEADING, "%s, source lines interleaved",
                 s->ptx ? "PTX (nvcc -ptx -lineinfo)" : "SASS (nvdisasm -g)");
    lab_doc_add(&v->doc, LAB_STYLE_DIM,
                "  n/N: next/previous marked instruction   Enter: back to its source line");
    for (size_t i = 0; i < l->n; i++) {
        const lab_insn *x = &l->v[i];
        if (in->kernel && strcmp(x->function, in->kernel->name))
            continue;
        if (x->file != last_file || x->line != last_line) {
            const char *xb = x->file && strrchr(x->file, '/') ? strrchr(x->file, '/') + 1 : x->file;
            size_t len = 0;
            const char *text = lab_inspect_is_own_file(in, x->file)
                                   ? lab_source_line(src->buf, x->line, &len)
                                   : NULL;
            if (text)
                lab_doc_addf(&v->doc, LAB_STYLE_COMMENT, "%5d | %.*s", x->line, (int)len, text);
            else if (x->file)
                lab_doc_addf(&v->doc, LAB_STYLE_DIM, "      | (%s:%d)", xb, x->line);
            last_file = x->file;
            last_line = x->line;
        }
        add_item(v, s, x->line, false, x->mark != LAB_MARK_NONE);
        if (x->mark)
            lab_doc_addf(&v->doc, mark_style(x->mark), "  %04lx  %-34s <- %s",
                         x->offset >= 0 ? x->offset : 0, x->text, lab_marks[x->mark].label);
        else if (x->offset >= 0)
            lab_doc_addf(&v->doc, LAB_STYLE_TEXT, "  %04lx  %s", x->offset, x->text);
        else
            lab_doc_addf(&v->doc, LAB_STYLE_TEXT, "        %s", x->text);
    }
}

static int
inspect_build(lab_menu *m, lab_menu_view *v, int width)
{
    inspect_state *s = v->state;
    const lab_inspection *in = &s->in;
    lab_buf src = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;

    (void)m;
    (void)width;
    s->ninfo = 0;
    if (s->vj.running) {
        lab_doc_addf(&v->doc, LAB_STYLE_HEADING, "Compiling %s for a look inside", s->file);
        lab_doc_add(&v->doc, LAB_STYLE_DIM,
                    "nvcc, ptxas -v and nvdisasm; the line below shows "
                    "how long.");
        return 0;
    }
    if (s->vj.rc < 0) {
        lab_doc_addf(&v->doc, LAB_STYLE_BAD, "inspect: %s", s->vj.error);
        return 0;
    }
    lab_doc_addf(&v->doc, LAB_STYLE_STRONG, "%s  %s  on %s", s->ex->id, s->file, in->arch);
    if (!in->build.ok) {
        lab_doc_addf(&v->doc, LAB_STYLE_BAD, "%s does not compile for %s", s->file, in->arch);
        lab_menu_add_text(&v->doc, in->build.log.buf);
        return 0;
    }
    lab_doc_addf(&v->doc, LAB_STYLE_TEXT, "Kernel %s%s%s", s->ex->kernel, in->kernel ? ", " : "",
                 in->kernel ? in->kernel->name : "");
    add_resources(&v->doc, in);
    lab_doc_add(&v->doc, LAB_STYLE_HEADING, "Instruction mix of the kernel");
    add_mix(&v->doc, "PTX ", &in->ptx_mix);
    if (in->has_sass) {
        add_mix(&v->doc, "SASS", &in->sass_mix);
        lab_doc_addf(&v->doc, LAB_STYLE_DIM, "v: show the %s", s->ptx ? "SASS" : "PTX");
    } else {
        lab_doc_addf(&v->doc, LAB_STYLE_WARN, "  SASS: not available: %s", in->sass_why);
        lab_doc_add(&v->doc, LAB_STYLE_TEXT,
                    "  To see SASS: make cuda-tools (installs cuobjdump and nvdisasm from the PyPI "
                    "packages nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm). Below: the PTX.");
    }
    lab_buf_read_file(&src, in->file, &err);
    add_source(v, s, &src);
    add_listing(v, s, &src);
    lab_buf_release(&src);
    return 0;
}

/* Moves the cursor to the first item from `from` going by step that pred accepts. */
static bool
select_where(lab_menu_view *v, long from, long step, bool (*pred)(const inspect_item *, int),
             int arg)
{
    inspect_state *s = v->state;

    for (long i = from; i >= 0 && (size_t)i < s->ninfo && (size_t)i < v->nitems; i += step)
        if (pred(&s->info[i], arg)) {
            v->sel = (size_t)i;
            v->top = v->items[i].line > 3 ? v->items[i].line - 3 : 0;
            return true;
        }
    return false;
}

static bool
is_marked(const inspect_item *it, int arg)
{
    (void)arg;
    return !it->source && it->marked;
}

static bool
is_insn_of(const inspect_item *it, int line)
{
    return !it->source && it->line == line;
}

static bool
is_source_line(const inspect_item *it, int line)
{
    return it->source && it->line == line;
}

static int
key_next_mark(lab_menu *m, lab_menu_view *v)
{
    if (!select_where(v, (long)v->sel + 1, 1, is_marked, 0) && !select_where(v, 0, 1, is_marked, 0))
        lab_menu_status(m, "no marked instruction in this kernel");
    return LAB_MENU_REDRAW;
}

static int
key_prev_mark(lab_menu *m, lab_menu_view *v)
{
    if (!select_where(v, (long)v->sel - 1, -1, is_marked, 0) &&
        !select_where(v, (long)v->nitems - 1, -1, is_marked, 0))
        lab_menu_status(m, "no marked instruction in this kernel");
    return LAB_MENU_REDRAW;
}

static int
key_jump(lab_menu *m, lab_menu_view *v)
{
    inspect_state *s = v->state;
    inspect_item it;

    if (v->sel >= s->ninfo)
        return 0;
    it = s->info[v->sel];
    if (it.source) {
        /* from the line's next instruction on, so Enter again finds the next group */
        if (!select_where(v, (long)v->sel + 1, 1, is_insn_of, it.line))
            lab_menu_status(m, "line %d made no instruction of this kernel", it.line);
        else
            lab_menu_status(m, "line %d: its instructions   Enter: back to the source", it.line);
    } else if (!select_where(v, 0, 1, is_source_line, it.line)) {
        lab_menu_status(m, "this instruction has no line of your file");
    }
    return LAB_MENU_REDRAW;
}

static int
key_toggle(lab_menu *m, lab_menu_view *v)
{
    inspect_state *s = v->state;

    if (!s->in.has_sass) {
        lab_menu_status(m, "no SASS here: make cuda-tools installs nvdisasm");
        return LAB_MENU_REDRAW;
    }
    s->ptx = !s->ptx;
    v->stale = true;
    v->sel = 0;
    v->top = 0;
    return LAB_MENU_REDRAW;
}

static const lab_menu_key inspect_keys[] = {
    { 'c', "c", "cancel the inspection (nvcc, ptxas)", lab_menu_viewjob_cancel_key },
    { 'n', "n", "next marked instruction", key_next_mark },
    { 'N', "N", "previous marked instruction", key_prev_mark },
    { '\n', "Enter", "source line -> its instructions; instruction -> its source line", key_jump },
    { KEY_ENTER, NULL, NULL, key_jump },
    { 'v', "v", "switch between SASS and PTX", key_toggle },
};

const lab_menu_screen lab_menu_inspect = {
    .name = "inspect",
    .build = inspect_build,
    .keys = inspect_keys,
    .nkeys = ARRAY_SIZE(inspect_keys),
    .release = inspect_release,
};

/* --- the inspection as work -------------------------------------------------------- */

typedef struct inspect_work {
    lab_menu_work base;
    const lab_exercise *ex;
    char file[4096];
    lab_inspection in;
} inspect_work;

static int
inspect_run(lab_menu_work *w, lab *l, lab_err *err)
{
    inspect_work *iw = (inspect_work *)w;

    lab_menu_work_stage(w, "compiling");
    iw->in.cancel = &w->cancel; /* c kills nvcc and ptxas */
    return lab_inspect(l, iw->ex, iw->file, NULL, &iw->in, err);
}

static void
inspect_done(lab_menu *m, lab_menu_work *w, int rc, const lab_err *err)
{
    inspect_work *iw = (inspect_work *)w;
    inspect_state *s = lab_menu_job_view(m, &lab_menu_inspect, iw->ex, rc, err);

    if (s) {
        lab_inspection_release(&s->in);
        s->in = iw->in; /* the view owns it now */
        s->in.cancel = NULL;
        lab_inspection_init(&iw->in);
        s->ptx = !s->in.has_sass;
    }
}

static void
inspect_free(lab_menu_work *w)
{
    inspect_work *iw = (inspect_work *)w;

    lab_inspection_release(&iw->in);
    free(iw);
}

int
lab_menu_inspect_start(lab_menu *m, const lab_exercise *ex)
{
    inspect_state *s = calloc(1, sizeof(*s));
    inspect_work *w = calloc(1, sizeof(*w));
    lab_buf work = LAB_BUF_INIT;

    if (!s || !w) {
        free(s);
        free(w);
        return LAB_ENOMEM;
    }
    lab_work_path(ex, &work);
    s->starter = access(work.buf, F_OK) != 0;
    snprintf(s->file, sizeof(s->file), "%s", s->starter ? ex->starter : work.buf);
    lab_buf_release(&work);
    s->ex = w->ex = ex;
    s->vj.key = ex;
    lab_inspection_init(&s->in);
    lab_inspection_init(&w->in);
    snprintf(w->file, sizeof(w->file), "%s", s->file);
    w->base = (lab_menu_work){
        .verb = "inspecting", .run = inspect_run, .done = inspect_done, .free = inspect_free
    };
    snprintf(w->base.subject, sizeof(w->base.subject), "%s", ex->id);
    return lab_menu_open_job(m, &lab_menu_inspect, s, "inspect", &w->base);
}
