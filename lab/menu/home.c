/*
 * home.c - the home screen: the GPU in use, overall progress, and every
 * chapter with its exercises and their status (a broken one as broken, its
 * manifest's problems at the end), and how often the learner's predictions held.  Enter opens the
 * chapter text or the exercise; d runs the chapter's demo (demo.c).
 */
#include "lab/menu/menu.h"
#include "lab/util/i18n.h"
#include "lab/report/progress.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "lab/util/buf.h"
#include "lab/util/textwidth.h"

static lab_progress
progress_of(lab_menu *m, const lab_exercise *ex)
{
    lab_progress p = { 0 };
    lab_err err = LAB_ERR_INIT;

    if (lab_store_progress(m->store, ex->id, &p, &err) < 0)
        lab_menu_status(m, "%s", err.msg);
    return p;
}

/* The status in one column: "PASS 1.82x 100%" where it was timed, else the words of `list`
 * ("not started", "passed, last PASS", "attempted, last WRONG"). */
static void
status_short(const lab_progress *p, char *buf, size_t size)
{
    if (p->attempts && p->best_speedup > 0)
        snprintf(buf, size, "%s %.2fx %.0f%%", p->passed ? "PASS" : "SLOW", p->best_speedup,
                 100 * p->best_fraction);
    else
        lab_progress_text(p, buf, size);
}

/* The line saying there is no GPU, wrapped to the screen: its reason is what the learner acts on,
 * and a line cut at the screen's edge would hide it. */
static void
no_gpu_line(lab_menu *m, lab_menu_view *v, int width)
{
    lab_buf line = LAB_BUF_INIT;
    char why[512];

    lab_buf_printf(&line, _("no GPU: the simulator grades; speed on modelled H100 times (%s)"),
                   m->device ? lab_device_reason(m->device, why, sizeof(why))
                             : _("the probe failed"));
    lab_doc_add_wrapped(&v->doc, LAB_STYLE_WARN, line.buf, width, "  ");
    lab_buf_release(&line);
}

static int
home_build(lab_menu *m, lab_menu_view *v, int width)
{
    const lab_catalog *cat = lab_catalog_of(m->lab);
    int passed = 0, points = 0, max_points = 0;
    char total[128];
    int tw = width - 24 > 20 ? width - 24 : 20; /* the title column; the status gets 21 */

    if (m->device && m->device->present)
        lab_doc_addf(&v->doc, LAB_STYLE_GOOD, _("GPU: %s (%s)"), m->device->name, m->device->arch);
    else /* wrapped: the reason is what to act on, whatever the screen's width */
        no_gpu_line(m, v, width);
    for (size_t i = 0; i < lab_catalog_exercise_count(cat); i++) {
        const lab_exercise *ex = lab_catalog_exercise(cat, i);
        lab_progress p = progress_of(m, ex);
        passed += p.passed;
        points += p.best_points;
        max_points += ex->points;
    }
    lab_progress_total_text(passed, lab_catalog_exercise_count(cat), points, max_points, total,
                            sizeof(total));
    lab_doc_add(&v->doc, LAB_STYLE_STRONG, total);
    for (size_t c = 0; c < lab_catalog_chapter_count(cat); c++) {
        const lab_chapter *ch = lab_catalog_chapter(cat, c);
        lab_doc_add(&v->doc, LAB_STYLE_TEXT, "");
        lab_menu_add_item(v, ch, true);
        char score[64];
        lab_menu_prediction_score(m, ch, score, sizeof(score));
        lab_doc_addf(&v->doc, LAB_STYLE_HEADING, _("%s  (chapter text)%s%s%s"), ch->local_title,
                     ch->demo ? _("  d: demo") : "", *score ? ", " : "", score);
        for (size_t i = 0; i < ch->nexercises; i++) {
            const lab_exercise *ex = ch->exercises[i];
            lab_progress p = progress_of(m, ex);
            lab_buf row = LAB_BUF_INIT;
            char st[64];
            status_short(&p, st, sizeof(st));
            lab_menu_add_item(v, ex, false);
            /* the status column starts at one display column, whatever the title's script */
            lab_buf_adds(&row, "  ");
            lab_text_pad(&row, ex->local_title, (size_t)tw);
            lab_buf_printf(&row, " %s", st);
            lab_doc_add(&v->doc, p.passed ? LAB_STYLE_GOOD : LAB_STYLE_TEXT, row.buf);
            lab_buf_release(&row);
        }
        for (size_t i = 0; i < lab_catalog_broken_count(cat); i++) {
            const lab_broken_exercise *b = lab_catalog_broken(cat, i);
            if (!strcmp(b->chapter, ch->id)) /* not to open: its manifest is what to fix */
                lab_doc_addf(&v->doc, LAB_STYLE_BAD, _("  %-*.*s broken (below)"), tw, tw,
                             b->id); /* an id is ASCII: bytes are columns */
        }
    }
    for (size_t i = 0; i < lab_catalog_problem_count(cat); i++)
        lab_doc_addf(&v->doc, LAB_STYLE_BAD, "%s", lab_catalog_problem(cat, i));
    return 0;
}

static int
home_open(lab_menu *m, lab_menu_view *v)
{
    const lab_menu_item *it;

    if (!v->nitems)
        return 0;
    it = &v->items[v->sel];
    if (it->chapter)
        lab_menu_open_chapter(m, it->ptr);
    else
        lab_menu_open_exercise(m, it->ptr);
    return LAB_MENU_REDRAW;
}

static int
home_demo(lab_menu *m, lab_menu_view *v)
{
    const lab_menu_item *it;
    const lab_chapter *ch;

    if (!v->nitems)
        return 0;
    it = &v->items[v->sel];
    ch = it->chapter ? it->ptr : lab_menu_chapter_of(m, it->ptr);
    if (ch)
        lab_menu_demo_start(m, ch);
    return LAB_MENU_REDRAW;
}

/* The messages' language, in turn through those there are (en, ko, zh_CN, ...), kept in the
 * store for the next start (lab/cli/main.c reads it). */
static int
home_language(lab_menu *m, lab_menu_view *v)
{
    lab_strvec langs = LAB_STRVEC_INIT;
    lab_err err = LAB_ERR_INIT;
    const char *next;
    size_t i = 0;

    (void)v;
    if (lab_i18n_languages(&langs, &err) < 0) {
        lab_menu_status(m, "%s", err.msg);
        goto out;
    }
    while (i < langs.n && strcmp(langs.v[i], lab_i18n_current()))
        i++;
    next = langs.v[i < langs.n ? (i + 1) % langs.n : 0];
    if (lab_i18n_choose(next, &err) < 0 || lab_store_set_setting(m->store, "lang", next, &err) < 0)
        lab_menu_status(m, "%s", err.msg);
    else if (strcmp(lab_i18n_current(), next))
        lab_menu_status(m, _("language %s needs a UTF-8 locale (LANG=C.UTF-8): kept for next time"),
                        next);
    else
        lab_menu_status(m, _("language: %s (kept for next time; L changes it)"), next);
out:
    lab_strvec_release(&langs);
    return LAB_MENU_REBUILD;
}

static const lab_menu_key home_keys[] = {
    { '\n', "Enter", N_("open the chapter text or the exercise"), home_open, NULL },
    { 'd', "d", N_("run the selected chapter's demo (asks your predictions first)"), home_demo,
      NULL },
    { 'L', "L", N_("the language of the lab: English, Korean, Chinese (kept for next time)"),
      home_language, NULL },
    { KEY_ENTER, NULL, NULL, home_open, NULL },
};

const lab_menu_screen lab_menu_home = {
    .name = "home",
    .build = home_build,
    .keys = home_keys,
    .nkeys = ARRAY_SIZE(home_keys),
};
