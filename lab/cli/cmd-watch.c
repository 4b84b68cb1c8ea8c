/*
 * cmd-watch.c - `cudalab watch EXERCISE [FILE]`: grade FILE now and again
 * every time it is saved, until Ctrl-C.  inotify watches the file's
 * directory, since many editors save by writing a new file and renaming it.
 * Each grading is `cudalab grade EXERCISE FILE`, run through the command table.
 */
#include "lab/cli/cli.h"

#include <errno.h>
#include <libgen.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

static int
grade_once(lab_cli *cli, const char *id, const char *file)
{
    char *const argv[] = { (char *)"--", (char *)id, (char *)file, NULL };
    int status = lab_cli_run(cli, &lab_cmd_grade, 3, argv);

    printf("\nwatching %s: save it to grade again (Ctrl-C stops)\n", file);
    fflush(stdout);
    return status;
}

/* True when the events in buf name file base. */
static bool
names(const char *buf, ssize_t n, const char *base)
{
    for (ssize_t i = 0; i < n;) {
        const struct inotify_event *e = (const struct inotify_event *)(buf + i);
        if (e->len && !strcmp(e->name, base))
            return true;
        i += (ssize_t)(sizeof(*e) + e->len);
    }
    return false;
}

static int
watch_run(lab_cli *cli, const lab_cli_args *args)
{
    char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
    lab_buf work = LAB_BUF_INIT, dir = LAB_BUF_INIT, base = LAB_BUF_INIT;
    const lab_exercise *ex;
    const char *file;
    int fd = -1, status = LAB_EXIT_OK;

    if (!(ex = lab_cli_exercise_file(cli, args, &work, &file)))
        return LAB_EXIT_ERROR;
    lab_buf_adds(&dir, file);
    lab_buf_adds(&base, file);
    if ((fd = inotify_init1(IN_CLOEXEC)) < 0 ||
        inotify_add_watch(fd, dirname(dir.buf), IN_CLOSE_WRITE | IN_MOVED_TO) < 0) {
        status = lab_cli_error("cannot watch '%s': %s", file, strerror(errno));
        goto out;
    }
    grade_once(cli, ex->id, file);
    for (;;) {
        ssize_t n;
        if (cli->cancel && *cli->cancel) { /* Ctrl-C in the shell */
            printf("stopped watching %s\n", file);
            break;
        }
        if ((n = read(fd, buf, sizeof(buf))) < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            status = lab_cli_error("watching '%s' failed: %s", file, strerror(errno));
            break;
        }
        if (names(buf, n, basename(base.buf)))
            grade_once(cli, ex->id, file);
    }
out:
    if (fd >= 0)
        close(fd);
    lab_buf_release(&work);
    lab_buf_release(&dir);
    lab_buf_release(&base);
    return status;
}

const lab_cmd lab_cmd_watch = {
    .name = "watch",
    .help = "grade FILE now and on every save, until Ctrl-C",
    .args = lab_cli_exercise_file_args,
    .run = watch_run,
};
