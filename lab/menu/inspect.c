/*
 * inspect.c - the exercise view's Inspect action: what `cudalab inspect`
 * shows (lab/instruments/inspect.h), as a view you move through.
 *
 * `i` builds the student's file (the starter when there is none yet) as
 * work (job.c, lab_inspect: nvcc, ptxas -v, nvdisasm), then the view shows
 * the inspection laid out by lab/report/inspection.h, as `cudalab inspect`
 * prints it, with the source file before the listing: the kernel's resources
 * and occupancy, the instruction mix, the source file with line numbers, and
 * the SASS (or PTX; `v` switches) with the source lines interleaved and the
 * marked instructions in their styles.  The report's source lines and
 * instructions (LAB_LINE_SOURCE, LAB_LINE_INSN) are the view's items: j/k
 * move the cursor, `n`/`N` go to the next/previous marked instruction, Enter
 * on a line of the source goes to its first instruction, Enter on an
 * instruction goes back to its source line.  Without nvdisasm the view shows
 * PTX and says how to get SASS.
 */
#include "lab/menu/menu.h"
#include "lab/util/i18n.h"
#include "lab/instruments/inspect.h"
#include "lab/report/inspection.h"

#include <curses.h>
#include <stdio.h>
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
    lab_menu_viewjob vj; /* key: the exercise; result: a lab_inspection */
    const lab_exercise *ex;
    char file[4096];
    bool starter;       /* no work file yet: the starter is shown */
    bool ptx;           /* show PTX, else SASS (when there is some) */
    inspect_item *info; /* one per item of the view */
    size_t ninfo;
} inspect_state;

static void
inspect_release(void *p)
{
    inspect_state *s = p;

    if (s)
        free(s->info);
    lab_menu_viewjob_free(s);
}

static void
inspection_free(void *in)
{
    lab_inspection_release(in);
    free(in);
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

/* A line of the report; its source lines and instructions become items. */
static int
add_line(void *view, const lab_line *line)
{
    lab_menu_view *v = view;
    int rc;

    if (line->kind != LAB_LINE_TEXT &&
        (rc = add_item(v, v->state, line->source_line, line->kind == LAB_LINE_SOURCE,
                       line->marked)) < 0)
        return rc;
    return lab_menu_add_line(&v->doc, line);
}

static int
inspect_build(lab_menu *m, lab_menu_view *v, int width)
{
    inspect_state *s = v->state;
    const lab_inspection *in = s->vj.result;
    lab_inspection_layout_opts opts = { LAB_INSPECTION_SASS, true };

    (void)m;
    (void)width;
    s->ninfo = 0;
    if (s->vj.running) {
        lab_doc_addf(&v->doc, LAB_STYLE_HEADING, _("Compiling %s for a look inside"), s->file);
        lab_doc_add(&v->doc, LAB_STYLE_DIM,
                    _("nvcc, ptxas -v and nvdisasm; the line below shows "
                      "how long."));
        return 0;
    }
    if (s->vj.rc < 0 || !in) {
        lab_doc_addf(&v->doc, LAB_STYLE_BAD, _("inspect: %s"), s->vj.error);
        return 0;
    }
    if (s->ptx || !in->has_sass)
        opts.listing = LAB_INSPECTION_PTX;
    if (!in->build.ok) {
        lab_doc_addf(&v->doc, LAB_STYLE_BAD, _("%s does not compile for %s"), s->file, in->arch);
        return lab_doc_add_text(&v->doc, LAB_STYLE_TEXT, in->build.log.buf);
    }
    lab_doc_add(
        &v->doc, LAB_STYLE_DIM,
        _("n/N: next/previous marked instruction   Enter: source line <-> its instructions"));
    if (in->has_sass)
        lab_doc_addf(&v->doc, LAB_STYLE_DIM, _("v: show the %s"), s->ptx ? "SASS" : "PTX");
    else
        lab_doc_add(&v->doc, LAB_STYLE_DIM,
                    _("To see SASS: make cuda-tools (installs nvdisasm); below: the PTX"));
    if (s->starter)
        lab_doc_add(&v->doc, LAB_STYLE_DIM, _("(the starter: you have no file yet)"));
    lab_doc_add(&v->doc, LAB_STYLE_TEXT, "");
    return lab_inspection_layout(in, &opts, add_line, v);
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
        lab_menu_status(m, _("no marked instruction in this kernel"));
    return LAB_MENU_REDRAW;
}

static int
key_prev_mark(lab_menu *m, lab_menu_view *v)
{
    if (!select_where(v, (long)v->sel - 1, -1, is_marked, 0) &&
        !select_where(v, (long)v->nitems - 1, -1, is_marked, 0))
        lab_menu_status(m, _("no marked instruction in this kernel"));
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
            lab_menu_status(m, _("line %d made no instruction of this kernel"), it.line);
        else
            lab_menu_status(m, _("line %d: its instructions   Enter: back to the source"), it.line);
    } else if (!select_where(v, 0, 1, is_source_line, it.line)) {
        lab_menu_status(m, _("this instruction has no line of your file"));
    }
    return LAB_MENU_REDRAW;
}

static int
key_toggle(lab_menu *m, lab_menu_view *v)
{
    inspect_state *s = v->state;
    const lab_inspection *in = s->vj.result;

    if (!in) {
        lab_menu_status(m, _("nothing inspected yet"));
        return LAB_MENU_REDRAW;
    }
    if (!in->has_sass) {
        lab_menu_status(m, _("no SASS here: make cuda-tools installs nvdisasm"));
        return LAB_MENU_REDRAW;
    }
    s->ptx = !s->ptx;
    v->stale = true;
    v->sel = 0;
    v->top = 0;
    return LAB_MENU_REDRAW;
}

static const lab_menu_key inspect_keys[] = {
    { 'c', "c", N_("cancel the inspection (nvcc, ptxas)"), lab_menu_viewjob_cancel_key, NULL },
    { 'n', "n", N_("next marked instruction"), key_next_mark, NULL },
    { 'N', "N", N_("previous marked instruction"), key_prev_mark, NULL },
    { '\n', "Enter", N_("source line -> its instructions; instruction -> its source line"),
      key_jump, NULL },
    { KEY_ENTER, NULL, NULL, key_jump, NULL },
    { 'v', "v", N_("switch between SASS and PTX"), key_toggle, NULL },
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
    lab_menu_viewwork base; /* result: a lab_inspection */
    const lab_exercise *ex;
    char file[4096];
} inspect_work;

static int
inspect_run(lab_menu_work *w, lab *l, lab_err *err)
{
    inspect_work *iw = (inspect_work *)w;
    lab_inspection *in = iw->base.result;
    int rc;

    lab_menu_work_stage(w, "compiling");
    in->cancel = &w->cancel; /* c kills nvcc and ptxas */
    /* the modelled times: the result view shows them after every grading; here they would push
     * the keys' help and the source off the first page */
    in->no_model = true;
    rc = lab_inspect(l, iw->ex, iw->file, NULL, in, err);
    in->cancel = NULL;
    return rc;
}

int
lab_menu_inspect_start(lab_menu *m, const lab_exercise *ex)
{
    inspect_state *s = calloc(1, sizeof(*s));
    inspect_work *w = calloc(1, sizeof(*w));
    lab_inspection *in = malloc(sizeof(*in));
    lab_buf work = LAB_BUF_INIT;

    if (!s || !w || !in) {
        free(s);
        free(w);
        free(in);
        return LAB_ENOMEM;
    }
    lab_inspection_init(in);
    lab_work_path(ex, &work);
    s->starter = access(work.buf, F_OK) != 0;
    snprintf(s->file, sizeof(s->file), "%s", s->starter ? ex->starter : work.buf);
    lab_buf_release(&work);
    s->ex = w->ex = ex;
    s->vj.key = ex;
    snprintf(w->file, sizeof(w->file), "%s", s->file);
    w->base = (lab_menu_viewwork){ .base = { .verb = N_("inspecting"), .run = inspect_run },
                                   .result = in,
                                   .result_free = inspection_free };
    snprintf(w->base.base.subject, sizeof(w->base.base.subject), "%s", ex->id);
    return lab_menu_open_job(m, &lab_menu_inspect, s, "inspect", &w->base);
}
