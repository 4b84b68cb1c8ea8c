/*
 * cmd-watch.c - `cudalab watch [EXERCISE [FILE]]`: grade an exercise now and
 * again every time its file is saved, until Ctrl-C.
 *
 * Without FILE it follows the student: it watches every chapter folder of
 * work/ and grades the exercise whose file was saved, whichever it is; after
 * a PASS it moves on to the next exercise not passed (creating its file from
 * the starter, as `start` does) and says so.  EXERCISE picks the one it
 * starts with (default: `cudalab next`'s).  With FILE it grades only that
 * file, as EXERCISE.  On a terminal each grading clears the screen first, so
 * the screen shows one verdict, the newest.
 *
 * inotify watches folders, not files, since many editors save by writing a
 * new file and renaming it.  Each grading is `cudalab grade EXERCISE FILE`,
 * run through the command table.
 */
#include "lab/cli/cli.h"

#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#define SAVED (IN_CLOSE_WRITE | IN_MOVED_TO)

typedef struct watch_state {
    lab_cli *cli;
    int fd;
    const lab_exercise *current; /* graded last, or to be graded next */
    const lab_exercise *made;    /* its file just made from the starter: that save is ours */
    lab_buf file;                /* its file */
    const char *only;            /* FILE: the one file followed, or NULL */
    lab_strvec chapters;         /* work/<chapter> of each inotify watch, by descriptor */
    int *wds;
    size_t nwds;
} watch_state;

/* Watch dir for saves, remembering which chapter it is (NULL: the file's own folder). */
static int
add_watch(watch_state *w, const char *dir, const char *chapter)
{
    int wd, *wds;

    if ((wd = inotify_add_watch(w->fd, dir, SAVED | IN_CREATE)) < 0)
        return -1;
    for (size_t i = 0; i < w->nwds; i++)
        if (w->wds[i] == wd)
            return 0;
    if (!(wds = realloc(w->wds, (w->nwds + 1) * sizeof(*wds))))
        return -1;
    w->wds = wds;
    w->wds[w->nwds++] = wd;
    lab_strvec_push(&w->chapters, chapter ? chapter : "");
    return 0;
}

/* Watches work/ and each of its chapter folders that exists. */
static int
watch_work(watch_state *w)
{
    const lab_catalog *cat = lab_catalog_of(w->cli->lab);
    lab_buf dir = LAB_BUF_INIT;
    int rc = 0;

    if (add_watch(w, "work", "") < 0)
        return -1;
    for (size_t i = 0; i < lab_catalog_exercise_count(cat) && rc == 0; i++) {
        const lab_exercise *ex = lab_catalog_exercise(cat, i);
        lab_buf_reset(&dir);
        lab_buf_printf(&dir, "work/%s", ex->chapter);
        if (access(dir.buf, F_OK) == 0)
            rc = add_watch(w, dir.buf, ex->chapter);
    }
    lab_buf_release(&dir);
    return rc;
}

static bool
is_watched(const watch_state *w, const char *chapter)
{
    for (size_t i = 0; i < w->nwds; i++)
        if (!strcmp(w->chapters.v[i], chapter))
            return true;
    return false;
}

static void
set_current(watch_state *w, const lab_exercise *ex)
{
    w->current = ex;
    lab_buf_reset(&w->file);
    if (w->only)
        lab_buf_adds(&w->file, w->only);
    else
        lab_work_path(ex, &w->file);
}

/* note: a line shown above the grading, or NULL */
static int
grade_current(watch_state *w, const char *note)
{
    lab_cli *cli = w->cli;
    char *const argv[] = { (char *)"--", (char *)w->current->id, w->file.buf, NULL };
    int status;

    if (isatty(STDOUT_FILENO))
        fputs("\033[H\033[2J", stdout); /* one verdict on the screen: the newest */
    if (note)
        printf("%s\n", note);
    fflush(stdout); /* before the grading's own lines on stderr */
    status = lab_cli_run(cli, &lab_cmd_grade, 3, argv);
    fflush(stdout);
    return status;
}

/* After a PASS: the next exercise not passed becomes the current one, its file started. */
static void
move_on(watch_state *w)
{
    const lab_exercise *next = NULL;
    lab_buf path = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    lab_store *st;
    bool created = false, watched;

    if (lab_store_of(w->cli->lab, &st, &err) < 0 ||
        lab_work_next(lab_catalog_of(w->cli->lab), st, w->current, &next, &err) < 0) {
        printf(_("\n(cannot tell which exercise comes next: %s)\n"), err.msg);
        return;
    }
    if (!next) {
        printf(_("\nEvery exercise is passed: well done.\n"));
        return;
    }
    if (next == w->current)
        return;
    watched = is_watched(w, next->chapter);
    if (lab_work_start(next, &path, &created, &err) < 0) {
        printf(_("\nNext: %s, but its file cannot be made: %s\n"), next->id, err.msg);
        lab_buf_release(&path);
        return;
    }
    set_current(w, next);
    w->made = created && watched ? next : NULL;
    printf(_("\nNext: %s%s%s  %s\n%s %s   read: %sshow %s\n"), lab_cli_sgr(w->cli, "1"), next->id,
           lab_cli_reset(w->cli), next->local_title,
           created ? _("Your file, made from the starter:") : _("Your file:"), path.buf,
           lab_cli_prog(w->cli), next->id);
    /* its chapter's folder may be new */
    lab_buf_reset(&path);
    lab_buf_printf(&path, "work/%s", next->chapter);
    add_watch(w, path.buf, next->chapter);
    lab_buf_release(&path);
}

static void
say_watching(const watch_state *w)
{
    if (w->only)
        printf(_("\nwatching %s: save it to grade again (Ctrl-C stops)\n"), w->file.buf);
    else
        printf(_("\nwatching %s: save it, or any exercise's file in work/, to grade it (Ctrl-C "
                 "stops)\n"),
               w->file.buf);
    fflush(stdout);
}

static bool
is_chapter(const lab_catalog *cat, const char *name)
{
    for (size_t i = 0; i < lab_catalog_chapter_count(cat); i++)
        if (!strcmp(lab_catalog_chapter(cat, i)->id, name))
            return true;
    return false;
}

/* The exercise whose file an event in buf names (the last one), or NULL. */
static const lab_exercise *
saved_exercise(watch_state *w, const char *buf, ssize_t n, const char *only_base)
{
    const lab_catalog *cat = lab_catalog_of(w->cli->lab);
    const lab_exercise *found = NULL;
    lab_buf id = LAB_BUF_INIT;

    for (ssize_t i = 0; i < n;) {
        const struct inotify_event *e = (const struct inotify_event *)(buf + i);
        i += (ssize_t)(sizeof(*e) + e->len);
        for (size_t k = 0; k < w->nwds && e->len; k++) {
            const char *chapter = w->chapters.v[k];
            if (w->wds[k] != e->wd)
                continue;
            if (only_base) {
                if ((e->mask & SAVED) && !strcmp(e->name, only_base))
                    found = w->current;
            } else if (!*chapter) { /* work/ itself: a chapter folder made */
                if ((e->mask & IN_ISDIR) && is_chapter(cat, e->name)) {
                    lab_buf_reset(&id);
                    lab_buf_printf(&id, "work/%s", e->name);
                    add_watch(w, id.buf, e->name);
                }
            } else if (e->mask & SAVED) {
                const lab_exercise *ex = lab_work_exercise_of(cat, chapter, e->name);
                if (!ex)
                    continue;
                if (ex == w->made) /* our own copy of the starter, not a save of the student's */
                    w->made = NULL;
                else
                    found = ex;
            }
        }
    }
    lab_buf_release(&id);
    return found;
}

static int
watch_run(lab_cli *cli, const lab_cli_args *args)
{
    char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
    const char *id = lab_cli_args_pos(args, 0);
    watch_state w = {
        .cli = cli, .fd = -1, .only = lab_cli_args_pos(args, 1), .chapters = LAB_STRVEC_INIT
    };
    lab_buf dir = LAB_BUF_INIT, base = LAB_BUF_INIT, path = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    const lab_exercise *ex = NULL;
    lab_store *st;
    bool created = false;
    int status = LAB_EXIT_OK;

    lab_buf_init(&w.file);
    if (id && !(ex = lab_cli_exercise(cli, id)))
        return LAB_EXIT_ERROR;
    if (!ex && (lab_store_of(cli->lab, &st, &err) < 0 ||
                lab_work_next(lab_catalog_of(cli->lab), st, NULL, &ex, &err) < 0)) {
        status = lab_cli_error("%s", err.msg);
        goto out;
    }
    if (!ex) {
        printf(_("Every exercise is passed: name one to watch (%swatch EXERCISE).\n"),
               lab_cli_prog(cli));
        goto out;
    }
    if (!w.only && lab_work_start(ex, &path, &created, &err) < 0) {
        status = lab_cli_error("%s", err.msg);
        goto out;
    }
    set_current(&w, ex);
    lab_buf_adds(&dir, w.file.buf);
    lab_buf_adds(&base, w.file.buf);
    if ((w.fd = inotify_init1(IN_CLOEXEC)) < 0 ||
        (w.only ? add_watch(&w, dirname(dir.buf), NULL) : watch_work(&w)) < 0) {
        status = lab_cli_error(_("cannot watch '%s': %s"), w.file.buf, strerror(errno));
        goto out;
    }
    lab_buf_reset(&path);
    if (created)
        lab_buf_printf(&path, _("%s: made from the starter"), w.file.buf);
    if (grade_current(&w, created ? path.buf : NULL) == LAB_EXIT_OK && !w.only)
        move_on(&w);
    say_watching(&w);
    for (;;) {
        ssize_t n;
        if (cli->cancel && *cli->cancel) { /* Ctrl-C in the shell */
            printf(_("stopped watching %s\n"), w.file.buf);
            break;
        }
        if ((n = read(w.fd, buf, sizeof(buf))) < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            status = lab_cli_error(_("watching '%s' failed: %s"), w.file.buf, strerror(errno));
            break;
        }
        if (!(ex = saved_exercise(&w, buf, n, w.only ? basename(base.buf) : NULL)))
            continue;
        set_current(&w, ex);
        if (grade_current(&w, NULL) == LAB_EXIT_OK && !w.only)
            move_on(&w);
        say_watching(&w);
    }
out:
    if (w.fd >= 0)
        close(w.fd);
    free(w.wds);
    lab_strvec_release(&w.chapters);
    lab_buf_release(&w.file);
    lab_buf_release(&dir);
    lab_buf_release(&base);
    lab_buf_release(&path);
    return status;
}

static const lab_cli_param args[] = {
    LAB_CLI_ARG("EXERCISE", LAB_CLI_EXERCISE, LAB_CLI_OPTIONAL,
                "the exercise to begin with (default: the next one not passed)"),
    LAB_CLI_ARG("FILE", LAB_CLI_SOURCE, LAB_CLI_OPTIONAL,
                "follow only this file, graded as EXERCISE (default: every file in work/)"),
    LAB_CLI_END,
};

const lab_cmd lab_cmd_watch = {
    .name = "watch",
    .help =
        N_("grade on every save the exercise whose file you saved; after a PASS, on to the next"),
    .args = args,
    .run = watch_run,
};
