/*
 * shell.c - the readline shell (see shell.h): read a line, split it into
 * words (quotes allowed), fill in the current exercise, run the command
 * from the table through the CLI's parser (lab_cli_dispatch), repeat until
 * `exit`, `quit` or end of input.  Tab completes from the same declarations.
 */
#include "lab/shell/shell.h"
#include "lab/util/i18n.h"
#include "lab/util/strvec.h"

#include <readline/history.h>
#include <readline/readline.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HISTORY_MAX 1000

/* Readline's completion callbacks take no argument: the shell's one context. */
static lab_cli *shell_cli;
/* Ctrl-C on a terminal: clears the line at the prompt, cancels a grading or a watch. */
static volatile sig_atomic_t interrupted;

static void
on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

/* Readline calls this when a signal interrupted its read: a fresh, empty prompt. */
static int
on_signal_event(void)
{
    if (interrupted) {
        interrupted = 0;
        rl_replace_line("", 0);
        rl_crlf();
        rl_on_new_line();
        rl_redisplay();
    }
    return 0;
}

/* SIGINT sets the flag; no SA_RESTART, so a blocked read returns at once. */
static void
catch_sigint(lab_cli *cli)
{
    struct sigaction sa = { 0 };

    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    rl_catch_signals = 0;
    rl_signal_event_hook = on_signal_event;
    cli->cancel = &interrupted;
}

/* --- words ---------------------------------------------------------------------- */

/* Splits line at blanks; '...' and "..." quote.  LAB_EINVAL on an open quote. */
static int
split(const char *line, lab_strvec *out)
{
    lab_buf w = LAB_BUF_INIT;
    const char *s = line;
    int rc = 0;

    for (;;) {
        bool any = false;
        char q = 0;
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s)
            break;
        lab_buf_reset(&w);
        while (*s && (q || (*s != ' ' && *s != '\t'))) {
            if (q && *s == q)
                q = 0;
            else if (!q && (*s == '"' || *s == '\''))
                q = *s;
            else
                lab_buf_addch(&w, *s);
            s++;
            any = true;
        }
        if (q) {
            rc = LAB_EINVAL;
            break;
        }
        if (any)
            lab_strvec_push(out, w.buf);
    }
    lab_buf_release(&w);
    return rc;
}

/* --- completion ------------------------------------------------------------------ */

/* What one completion offers: readline's generator callback takes no argument. */
typedef const char *candidate_fn(size_t i); /* the i-th candidate, NULL past the end */

static struct {
    candidate_fn *at;
    const lab_cmd *cmd;         /* option_at: its options */
    const lab_cli_param *param; /* choice_at: its choices */
    char option[64];            /* option_at's answer */
    size_t i;
} offer;

static const char *
first_word_at(size_t i)
{
    static const char *const own[] = { "exit", "quit" };

    if (i < lab_cmd_count)
        return lab_cmds[i]->name;
    return i - lab_cmd_count < ARRAY_SIZE(own) ? own[i - lab_cmd_count] : NULL;
}

static const char *
command_at(size_t i)
{
    return i < lab_cmd_count ? lab_cmds[i]->name : NULL;
}

static const char *
exercise_at(size_t i)
{
    const lab_catalog *cat = lab_catalog_of(shell_cli->lab);

    return i < lab_catalog_exercise_count(cat) ? lab_catalog_exercise(cat, i)->id : NULL;
}

static const char *
chapter_at(size_t i)
{
    const lab_catalog *cat = lab_catalog_of(shell_cli->lab);

    return i < lab_catalog_chapter_count(cat) ? lab_catalog_chapter(cat, i)->id : NULL;
}

static const char *
choice_at(size_t i)
{
    return offer.param->choices[i];
}

/* "--json": an option of offer.cmd ("" if the name does not fit). */
static const char *
option_at(size_t i)
{
    const lab_cli_param *p = offer.cmd->opts ? &offer.cmd->opts[i] : NULL;
    int n;

    if (!p || !p->name)
        return NULL;
    n = snprintf(offer.option, sizeof(offer.option), "--%s", p->name);
    return n > 0 && (size_t)n < sizeof(offer.option) ? offer.option : "";
}

/* The candidates of each type of value; file names are readline's own. */
static candidate_fn *const candidates[LAB_CLI_TYPE_COUNT] = {
    [LAB_CLI_EXERCISE] = exercise_at,
    [LAB_CLI_CHAPTER] = chapter_at,
    [LAB_CLI_COMMAND] = command_at,
    [LAB_CLI_CHOICE] = choice_at,
};

static char *
next_candidate(const char *text, int state)
{
    size_t n = strlen(text);
    const char *c;

    if (!state)
        offer.i = 0;
    while ((c = offer.at(offer.i++)))
        if (*c && !strncmp(c, text, n))
            return strdup(c);
    return NULL;
}

static char **
offer_from(const char *text, candidate_fn *at, const lab_cmd *cmd, const lab_cli_param *p)
{
    offer.at = at;
    offer.cmd = cmd;
    offer.param = p;
    return rl_completion_matches(text, next_candidate);
}

/* Completes text as a value of p: its candidates, or file names. */
static char **
complete_value(const char *text, const lab_cli_param *p)
{
    if (p->type == LAB_CLI_SOURCE || p->type == LAB_CLI_FILE || p->type == LAB_CLI_DIR)
        return rl_completion_matches(text, rl_filename_completion_function);
    return candidates[p->type] ? offer_from(text, candidates[p->type], NULL, p) : NULL;
}

/* Completes the word text after the line's first start characters, from the command's
 * declarations: its options, an option's value, a positional argument. */
static char **
complete(const char *text, int start, int end)
{
    lab_strvec words = LAB_STRVEC_INIT;
    char *before = strndup(rl_line_buffer, (size_t)start);
    const lab_cli_param *opt, *arg;
    const lab_cmd *cmd;
    char **matches = NULL;
    size_t pos;

    (void)end;
    rl_attempted_completion_over = 1;
    if (!before || split(before, &words) < 0)
        goto out;
    if (words.n == 0) {
        matches = offer_from(text, first_word_at, NULL, NULL);
        goto out;
    }
    if (!(cmd = lab_cli_find(words.v[0])))
        goto out;
    lab_cli_args_next(cmd, (int)words.n - 1, words.v + 1, &opt, &pos);
    if (opt) {
        matches = complete_value(text, opt);
        goto out;
    }
    if (text[0] == '-') {
        matches = offer_from(text, option_at, cmd, NULL);
        goto out;
    }
    if ((arg = lab_cli_arg_at(cmd, pos)))
        matches = complete_value(text, arg);
    /* no exercise matches: the current exercise is implied, so complete what follows it */
    if (!matches && arg && arg->type == LAB_CLI_EXERCISE && (arg = lab_cli_arg_at(cmd, pos + 1)))
        matches = complete_value(text, arg);
out:
    free(before);
    lab_strvec_release(&words);
    return matches;
}

/* --- history file ---------------------------------------------------------------- */

static void
history_path(lab_buf *out)
{
    const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");

    if (xdg && xdg[0] == '/')
        lab_buf_printf(out, "%s/cudalab", xdg);
    else if (home && *home)
        lab_buf_printf(out, "%s/.local/share/cudalab", home);
}

/* --- one line ---------------------------------------------------------------------- */

/* Whether word, which names no exercise, is a mistyped exercise id rather than the argument
 * that follows the exercise (`grade nosuch/ex`, not a file): it reads CHAPTER/EXERCISE, is no
 * kernel file and no file there is. */
static bool
mistyped_exercise(const char *word)
{
    return strchr(word, '/') && !strstr(word, ".cu") && access(word, F_OK) < 0;
}

/* A command whose first argument is an exercise: a known one named first becomes the
 * current one; else the current one goes first when there is room for it, unless the first
 * word is a mistyped exercise (the command then says so). */
static void
imply_exercise(const lab_catalog *cat, const lab_cmd *cmd, const lab_strvec *words, char *cur,
               size_t cur_size, lab_strvec *argv)
{
    const char *first;
    lab_cli_args a;

    if (lab_cli_args_parse(cmd, (int)words->n - 1, words->v + 1, &a, NULL) == 0 && !a.help) {
        first = lab_cli_args_pos(&a, 0);
        if (first && lab_catalog_find(cat, first))
            snprintf(cur, cur_size, "%s", first);
        else if (cur[0] && a.npos < lab_cli_max_args(cmd) && !(first && mistyped_exercise(first)))
            lab_strvec_push(argv, cur);
    }
    lab_cli_args_release(&a);
}

/* Runs one line; returns the command's exit status, or -1 for exit/quit. */
static int
run_line(lab_cli *cli, const char *line, char *cur, size_t cur_size)
{
    lab_strvec words = LAB_STRVEC_INIT, argv = LAB_STRVEC_INIT;
    const lab_cmd *cmd;
    int status = 0;

    if (split(line, &words) < 0) {
        status = lab_cli_error(_("unclosed quote"));
        goto out;
    }
    if (!words.n || words.v[0][0] == '#')
        goto out;
    if (!strcmp(words.v[0], "exit") || !strcmp(words.v[0], "quit")) {
        status = -1;
        goto out;
    }
    cmd = lab_cli_find(words.v[0]);
    if (cmd == &lab_cmd_shell) {
        status = lab_cli_error(_("already in the shell"));
        goto out;
    }
    lab_strvec_push(&argv, words.v[0]);
    if (cmd && cmd->args && cmd->args[0].type == LAB_CLI_EXERCISE)
        imply_exercise(lab_catalog_of(cli->lab), cmd, &words, cur, cur_size, &argv);
    for (size_t i = 1; i < words.n; i++)
        lab_strvec_push(&argv, words.v[i]);
    fflush(stdout);
    interrupted = 0;
    status = lab_cli_dispatch(cli, (int)argv.n, argv.v);
    interrupted = 0;
    fflush(stdout);
out:
    lab_strvec_release(&words);
    lab_strvec_release(&argv);
    return status;
}

int
lab_shell_run(lab_cli *cli)
{
    bool tty = isatty(STDIN_FILENO);
    lab_buf dir = LAB_BUF_INIT, hist = LAB_BUF_INIT, prompt = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    char cur[256] = "";
    char *line = NULL;
    size_t cap = 0;
    int status = 0;

    shell_cli = cli;
    cli->shell = true;
    if (tty) {
        rl_readline_name = "cudalab";
        rl_attempted_completion_function = complete;
        rl_completer_word_break_characters = " \t";
        catch_sigint(cli);
        history_path(&dir);
        if (dir.len && lab_mkdir_p(dir.buf, 0755, &err) == 0) {
            lab_buf_printf(&hist, "%s/history", dir.buf);
            read_history(hist.buf);
        }
        printf(_("cudalab shell: the CLI's commands (help lists them), Tab completes, exit "
                 "leaves.\n"));
    }
    for (;;) {
        int rc;
        if (tty) {
            free(line);
            lab_buf_reset(&prompt);
            lab_buf_printf(&prompt, "cudalab%s%s> ", cur[0] ? " " : "", cur);
            if (!(line = readline(prompt.buf))) {
                putchar('\n');
                break;
            }
            for (size_t n = strlen(line); n > 0 && (line[n - 1] == ' ' || line[n - 1] == '\t');)
                line[--n] = '\0';
            if (*line && hist.len) {
                add_history(line);
                if (access(hist.buf, F_OK) < 0)
                    write_history(hist.buf);
                else
                    append_history(1, hist.buf);
            }
        } else {
            ssize_t n = getline(&line, &cap, stdin);
            if (n < 0)
                break;
            if (n > 0 && line[n - 1] == '\n')
                line[n - 1] = '\0';
        }
        if ((rc = run_line(cli, line, cur, sizeof(cur))) < 0)
            break;
        status = rc;
    }
    if (hist.len)
        history_truncate_file(hist.buf, HISTORY_MAX);
    free(line);
    lab_buf_release(&dir);
    lab_buf_release(&hist);
    lab_buf_release(&prompt);
    return status;
}
