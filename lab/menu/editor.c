/*
 * editor.c - the student's editor on the terminal: $VISUAL, else $EDITOR,
 * else the system's `editor` (Debian's alternative), nano or vi.  The
 * command is split at spaces ("code -w" works) and run without a shell,
 * in the foreground with the terminal, curses suspended around it.  While it
 * runs the lab ignores SIGINT and SIGQUIT, as system() does.
 */
#include "lab/menu/menu.h"
#include "lab/util/i18n.h"
#include "lab/util/strvec.h"

#include <curses.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static bool
on_path(const char *name)
{
    const char *path = getenv("PATH");
    lab_buf p = LAB_BUF_INIT;
    bool found = false;

    while (path && *path && !found) {
        size_t n = strcspn(path, ":");
        lab_buf_reset(&p);
        lab_buf_printf(&p, "%.*s/%s", (int)n, path, name);
        found = access(p.buf, X_OK) == 0;
        path += n + (path[n] == ':');
    }
    lab_buf_release(&p);
    return found;
}

static const char *
editor_command(void)
{
    const char *fallbacks[] = { "editor", "nano", "vi" };
    const char *e = getenv("VISUAL");

    if (e && *e)
        return e;
    if ((e = getenv("EDITOR")) && *e)
        return e;
    for (size_t i = 0; i < ARRAY_SIZE(fallbacks); i++)
        if (on_path(fallbacks[i]))
            return fallbacks[i];
    return "vi";
}

int
lab_menu_edit(const char *path, lab_err *err)
{
    lab_strvec argv = LAB_STRVEC_INIT;
    struct sigaction ign = { 0 }, old_int, old_quit;
    char *cmd = strdup(editor_command()), *save = NULL;
    int status = 0, rc = 0;
    pid_t pid;

    if (!cmd)
        return lab_err_set(err, LAB_ENOMEM, _("out of memory"));
    for (char *w = strtok_r(cmd, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
        lab_strvec_push(&argv, w);
    lab_strvec_push(&argv, path);
    ign.sa_handler = SIG_IGN;
    sigaction(SIGINT, &ign, &old_int);
    sigaction(SIGQUIT, &ign, &old_quit);
    def_prog_mode();
    endwin();
    pid = fork();
    if (pid == 0) {
        signal(SIGINT, SIG_DFL);
        signal(SIGQUIT, SIG_DFL);
        execvp(argv.v[0], argv.v);
        fprintf(stderr, "cudalab: cannot run '%s': %s\n", argv.v[0], strerror(errno));
        _exit(127);
    }
    if (pid < 0)
        rc = lab_err_set(err, LAB_ECHILD, _("cannot start the editor: %s"), strerror(errno));
    else
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);
    reset_prog_mode();
    refresh();
    if (rc == 0 && WIFSIGNALED(status))
        rc = lab_err_set(err, LAB_ECHILD, _("the editor '%s' was killed by signal %d"), argv.v[0],
                         WTERMSIG(status));
    else if (rc == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 127)
        rc = lab_err_set(err, LAB_ETOOL, _("cannot run the editor '%s' (set $EDITOR)"), argv.v[0]);
    else if (rc == 0 && WIFEXITED(status) && WEXITSTATUS(status))
        rc = lab_err_set(err, LAB_ECHILD, _("the editor '%s' exited with status %d"), argv.v[0],
                         WEXITSTATUS(status));
    lab_strvec_release(&argv);
    free(cmd);
    return rc;
}
