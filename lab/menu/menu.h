/*
 * menu.h - the full-screen ncurses menu (`cudalab` on a terminal, `cudalab
 * menu`): what its files share.
 *
 * Everything on screen is a view: a screen (one row of the screen table:
 * how to build its text, its keys) plus its state, laid out as a lab_doc
 * (lab/menu/doc.h) that the one pager draws, scrolls and searches.  Views
 * sit on a stack: Enter pushes, `q` pops.  A screen that lists things
 * (home, the predict screen, the inspect listing) marks selectable lines
 * as items.  A view whose content comes from work in the background (demo,
 * inspect, profile) starts with a lab_menu_viewjob and takes the work's
 * result when it ends (a lab_menu_viewwork, job.c).  Reports are laid out by
 * lab/report as styled lines; lab_menu_add_line maps their styles to the
 * pager's.  Nothing here includes the CLI: `cudalab menu` passes its choices
 * in a lab_menu_opts.
 *
 * Files: menu.c (terminal, event loop, stack, pager keys, help), home.c,
 * exercise.c (task, hints, actions, watch), pages.c (chapter text, reference
 * solution, history chart, grading result), job.c (work in a thread),
 * grading.c (a grading as work), demo.c (a chapter's demo view, asked for
 * by `d`, with the prediction questions before it), inspect.c (Inspect:
 * resources, occupancy, PTX/SASS with source lines), profile.c (Profile: the
 * counters of `cudalab profile`), editor.c ($VISUAL/$EDITOR).
 *
 * Threads: only job.c's worker runs beside the UI, inside lab_grade,
 * lab_demo_run_chapter, lab_profile or lab_inspect; the UI reads the store
 * through a connection of its own (m->store) and does not touch the lab
 * while a job runs (see job.c).
 */
#ifndef LAB_MENU_MENU_H
#define LAB_MENU_MENU_H

#include <signal.h>
#include <stdbool.h>

#include "lab/grade/grade.h"
#include "lab/grade/store.h"
#include "lab/grade/work.h"
#include "lab/menu/doc.h"
#include "lab/report/lines.h"

typedef struct lab_menu lab_menu;
typedef struct lab_menu_view lab_menu_view;

/* What an action asks of the loop. */
#define LAB_MENU_REDRAW 1  /* draw the top view again */
#define LAB_MENU_REBUILD 2 /* lay out every view's text again (progress changed) */

typedef struct lab_menu_key {
    int key;          /* ncurses key code */
    const char *name; /* as shown on the help screen: "g", "Enter" */
    const char *help;
    int (*fn)(lab_menu *m, lab_menu_view *v);
    const char *label; /* on the screen's key line ("g grade"); NULL: the help screen only */
} lab_menu_key;

typedef struct lab_menu_screen {
    const char *name;
    /* Fills v->doc (and v->items) for the width; may read the store. */
    int (*build)(lab_menu *m, lab_menu_view *v, int width);
    const lab_menu_key *keys;
    size_t nkeys;
    void (*release)(void *state); /* may be NULL */
} lab_menu_screen;

/* Work for job.c's thread; each kind embeds it first and fills verb, subject and the functions. */
typedef struct lab_menu_work lab_menu_work;
struct lab_menu_work {
    const char *verb;  /* "grading", "demo", "profiling", "inspecting" */
    char subject[256]; /* "reduction/neighbored-less" */
    /* In the worker thread: the work itself (pass &w->cancel down); 0 or <0 with err. */
    int (*run)(lab_menu_work *w, lab *l, lab_err *err);
    /* In the UI thread once run returned (rc LAB_ECANCEL when cancelled). */
    void (*done)(lab_menu *m, lab_menu_work *w, int rc, const lab_err *err);
    void (*free)(lab_menu_work *w);
    volatile sig_atomic_t cancel; /* set by job.c */
    struct lab_menu_job *job;
};

/* The part of a view's state that follows its work (demo, inspect, profile); embedded first. */
typedef struct lab_menu_viewjob {
    const void *key; /* what the work is about: the chapter, the exercise */
    bool running;
    int rc;          /* the work's, once done */
    char error[512]; /* its message when rc < 0 */
    void *result;    /* the work's result once it ended (whatever rc), else NULL */
    void (*result_free)(void *result);
} lab_menu_viewjob;

/* A work that fills such a view, embedded first in each kind's work: the kind's run fills result
 * (made by the starter); when the work ends, the result goes to the view that still waits for it
 * (vj.result), or is freed with it.  job.c's done and free do that. */
typedef struct lab_menu_viewwork {
    lab_menu_work base;
    const lab_menu_screen *screen; /* the view's; set by lab_menu_open_job */
    const void *key;               /* the view's vj.key; set by lab_menu_open_job */
    void *result;
    void (*result_free)(void *result);
} lab_menu_viewwork;

typedef struct lab_menu_item {
    size_t line; /* in v->doc */
    const void *ptr;
    bool chapter; /* ptr is a lab_chapter, else a lab_exercise */
} lab_menu_item;

struct lab_menu_view {
    const lab_menu_screen *screen;
    char title[256];
    void *state;
    lab_doc doc;
    lab_menu_item *items;
    size_t nitems;
    size_t sel;  /* selected item */
    size_t top;  /* first line shown */
    size_t left; /* first column shown (wide tables) */
    bool stale;  /* build again before drawing */
    char search[128];
};

struct lab_menu_job;

/* What the front end that opens the menu decides. */
typedef struct lab_menu_opts {
    bool color; /* the terminal may be coloured (NO_COLOR unset or empty) */
} lab_menu_opts;

#define LAB_MENU_WATCH_DIRS 32

struct lab_menu {
    lab *lab;
    lab_store *store; /* the UI's own connection */
    const lab_device *device;
    lab_menu_view *stack[16];
    int depth;
    bool quit;
    bool color;
    char status[256];   /* one-line message on the last row */
    char progress[256]; /* the grading progress line, "" when idle */
    struct lab_menu_job *job;
    /* watch: grade the exercise whose file in work/ is saved, whichever it is (the one watch
     * was turned on for first) */
    int inotify_fd;
    int watch_wds[LAB_MENU_WATCH_DIRS];           /* work/ and its chapter folders */
    char watch_chapters[LAB_MENU_WATCH_DIRS][64]; /* of each, "" for work/ itself */
    int nwatch;
    const lab_exercise *watch_ex; /* followed: the last one saved; NULL: watch is off */
    char watch_name[256];
    bool watch_pending;
};

/* Watch mode: work/ (chapter "") or work/CHAPTER added to the folders watched for saves; 0 or
 * -1 (errno). */
int lab_menu_watch_dir(lab_menu *m, const char *chapter);

/* The menu on the terminal until the learner quits: 0, or <0 with err when it cannot start. */
int lab_menu_run(lab *l, const lab_menu_opts *opts, lab_err *err);

/* menu.c */
int lab_menu_push(lab_menu *m, const lab_menu_screen *s, void *state, const char *title);
void lab_menu_pop(lab_menu *m);
void lab_menu_status(lab_menu *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Asks a yes/no question on the last row; true on 'y'. */
bool lab_menu_confirm(lab_menu *m, const char *question);
/* Reads a line typed on the last row after prompt; false when empty. */
bool lab_menu_prompt(lab_menu *m, const char *prompt, char *buf, size_t size);
/* Marks every view for a rebuild (progress or files changed). */
void lab_menu_stale_all(lab_menu *m);
int lab_menu_add_item(lab_menu_view *v, const void *ptr, bool chapter);
/* The screen's key line, from its key table: "e edit  g grade ...", every key with a label, in
 * the table's order, wrapped at width.  0 or LAB_ENOMEM. */
int lab_menu_add_key_line(lab_doc *d, const lab_menu_screen *s, int width);
/* The pager's style for a report's style (lab/report/style.h). */
lab_style lab_menu_style(lab_text_style s);
/* A lab_line_fn (arg: a lab_doc): a report's line into the doc, each report style mapped to the
 * pager's.  0 or LAB_ENOMEM. */
int lab_menu_add_line(void *doc, const lab_line *line);

/* home.c, exercise.c, pages.c, demo.c, inspect.c, profile.c */
extern const lab_menu_screen lab_menu_home, lab_menu_exercise, lab_menu_chapter, lab_menu_solution,
    lab_menu_history, lab_menu_result, lab_menu_help, lab_menu_predict, lab_menu_demo,
    lab_menu_inspect, lab_menu_profile;
/* `d`: asks the chapter's unanswered questions, then opens the demo view and runs the demo. */
int lab_menu_demo_start(lab_menu *m, const lab_chapter *ch);
/* The chapter an exercise belongs to. */
const lab_chapter *lab_menu_chapter_of(lab_menu *m, const lab_exercise *ex);
/* "predictions right: 2 of 3", or "" when none decided yet. */
void lab_menu_prediction_score(lab_menu *m, const lab_chapter *ch, char *buf, size_t size);
int lab_menu_inspect_start(lab_menu *m, const lab_exercise *ex);
int lab_menu_profile_start(lab_menu *m, const lab_exercise *ex);
int lab_menu_open_exercise(lab_menu *m, const lab_exercise *ex);
/* Watch mode saw ex's file saved: its exercise view comes to the top (another exercise's views
 * give way), unless it is there. */
void lab_menu_follow_exercise(lab_menu *m, const lab_exercise *ex);
int lab_menu_open_chapter(lab_menu *m, const lab_chapter *ch);
/* The course's text at path (a chapter text, a task) with its figures filled in
 * (lab_catalog_read_text), laid out for width; a text that cannot be read or names an unknown
 * figure is one line saying why.  0 or LAB_ENOMEM. */
int lab_menu_course_text(lab_menu *m, lab_doc *d, const char *path, int width);
/* A finished grading of an exercise (or why there is none: cancelled, a lab error), shared by the
 * views that show it, each laying it out at its own width on every build, so a resize re-wraps
 * the verdict.  Made by grading.c with one reference; hold adds one, put drops one and frees it
 * with the last. */
typedef struct lab_menu_graded lab_menu_graded;
lab_menu_graded *lab_menu_graded_hold(lab_menu_graded *gr);
void lab_menu_graded_put(lab_menu_graded *gr);
const lab_exercise *lab_menu_graded_exercise(const lab_menu_graded *gr);
/* Its verdict was PASS. */
bool lab_menu_graded_passed(const lab_menu_graded *gr);
/* Lays it out (lab/report/grading.h) into d for width, all of it or (verdict) its last paragraph:
 * the verdict, the points and what to do next.  0 or LAB_ENOMEM. */
int lab_menu_graded_layout(const lab_menu_graded *gr, lab_doc *d, int width, bool verdict);
/* The exercise view's hook when a grading of its exercise ends: it holds gr as its last result. */
void lab_menu_exercise_graded(lab_menu *m, lab_menu_graded *gr);
/* `g`: grades the student's file of ex (a status line says why not). */
int lab_menu_grade_exercise(lab_menu *m, const lab_exercise *ex);
/* Enter after a pass: closes the result and exercise views of ex and opens the next exercise not
 * passed in course order (lab_work_next); a status line when every one is passed. */
int lab_menu_open_next(lab_menu *m, const lab_exercise *ex);
/* A result view showing gr (it holds a reference), in place of the result view of the same
 * exercise on top; after a PASS, Enter opens the next exercise. */
int lab_menu_open_result(lab_menu *m, lab_menu_graded *gr);

/* job.c: one piece of work at a time.  lab_menu_job_run owns w from the call on (w->free). */
int lab_menu_job_run(lab_menu *m, lab_menu_work *w);
/* From the worker: the stage shown on the progress line. */
void lab_menu_work_stage(lab_menu_work *w, const char *what);
/* true when no work runs; else false with a status message. */
bool lab_menu_job_idle(lab_menu *m);
void lab_menu_job_cancel(lab_menu *m);
/* The `c` key of the exercise and result views: cancels the work that runs, if any. */
int lab_menu_job_cancel_key(lab_menu *m, lab_menu_view *v);
/* The `c` key of a view whose state starts with a lab_menu_viewjob: cancels its running work. */
int lab_menu_viewjob_cancel_key(lab_menu *m, lab_menu_view *v);
/* Pushes a view of screen s whose state starts with a lab_menu_viewjob (set running here), then
 * runs w (its done, when NULL, and its free are set to lab_menu_viewwork_done and job.c's); a work
 * that cannot start shows its reason in the view. */
int lab_menu_open_job(lab_menu *m, const lab_menu_screen *s, void *state, const char *title,
                      lab_menu_viewwork *w);
/* A viewwork's done: the view still waiting for it (NULL when it was closed) marked done (rc,
 * err's message) and stale, with the work's result; returns that view's state. */
void *lab_menu_viewwork_done(lab_menu *m, lab_menu_work *w, int rc, const lab_err *err);
/* A screen's release for a state that is a lab_menu_viewjob and nothing to free besides. */
void lab_menu_viewjob_free(void *state);
/* Frees the result a view's state holds (the view's release calls it). */
void lab_menu_viewjob_release(lab_menu_viewjob *vj);
int lab_menu_job_fd(const lab_menu *m); /* -1 when idle */
/* Reads the worker's messages; when it is done, joins it and shows the result. */
int lab_menu_job_poll(lab_menu *m);
/* Cancels and joins (on quit). */
void lab_menu_job_stop(lab_menu *m);

/* grading.c: grades file for ex as work (the result into the exercise view and a result view). */
int lab_menu_grade_start(lab_menu *m, const lab_exercise *ex, const char *file);

/* editor.c: runs $VISUAL / $EDITOR on path with the terminal; 0 or <0 with err. */
int lab_menu_edit(const char *path, lab_err *err);

#endif
