/*
 * cmd-table.c - the one list of commands, running one of them (parsed by args.c), and
 * helpers every command shares.
 */
#include "lab/cli/cli.h"
#include "lab/util/utf8.h"

#include <cJSON.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* In course order, a group's commands together: --help, the man page and completion follow it. */
const lab_cmd *const lab_cmds[] = {
    &lab_cmd_list,
    &lab_cmd_next,
    &lab_cmd_show,
    &lab_cmd_start,
    &lab_cmd_grade,
    &lab_cmd_demo,
    &lab_cmd_watch,
    &lab_cmd_hint,
    &lab_cmd_reset,
    &lab_cmd_history,
    &lab_cmd_inspect,
    &lab_cmd_profile,
    &lab_cmd_predict,
    &lab_cmd_device,
    &lab_cmd_doctor,
    &lab_cmd_menu,
    &lab_cmd_shell,
    &lab_cmd_help,
    /* LAB_CLI_TEACH */
    &lab_cmd_new_exercise,
    &lab_cmd_check_exercise,
    &lab_cmd_batch,
    &lab_cmd_gradebook,
    &lab_cmd_calibrate,
};
const size_t lab_cmd_count = ARRAY_SIZE(lab_cmds);

const char *const lab_cli_group_titles[LAB_CLI_GROUP_COUNT] = {
    [LAB_CLI_STUDY] = N_("for students"),
    [LAB_CLI_TEACH] = N_("for instructors and graders"),
};

const lab_cmd *
lab_cli_find(const char *name)
{
    for (size_t i = 0; i < lab_cmd_count; i++)
        if (!strcmp(lab_cmds[i]->name, name))
            return lab_cmds[i];
    return NULL;
}

int
lab_cli_run(lab_cli *cli, const lab_cmd *cmd, int argc, char *const *argv)
{
    lab_cli_args args;
    int status = lab_cli_args_read(cmd, argc, argv, &args);

    if (status == LAB_EXIT_OK && !args.help) {
        cli->json = false;
        lab_i18n_english(lab_cli_english_output(&args));
        status = cmd->run(cli, &args);
        lab_i18n_english(false);
    }
    lab_cli_args_release(&args);
    return status;
}

bool
lab_cli_english_output(const lab_cli_args *a)
{
    return a->cmd->machine_output ||
           (lab_cli_find_opt(a->cmd, "json") && lab_cli_args_has(a, "json"));
}

int
lab_cli_dispatch(lab_cli *cli, int argc, char *const *argv)
{
    const lab_cmd *cmd = argc > 0 ? lab_cli_find(argv[0]) : NULL;

    if (!cmd)
        return lab_cli_unknown_command(cli, argc > 0 ? argv[0] : "");
    return lab_cli_run(cli, cmd, argc - 1, argv + 1);
}

const char *
lab_cli_prog(const lab_cli *cli)
{
    return cli && cli->shell ? "" : "cudalab ";
}

void
lab_cli_put_shown(FILE *f, const char *text, size_t len)
{
    lab_buf shown = LAB_BUF_INIT;

    if (!lab_utf8_needs_showing(text, len, LAB_UTF8_KEEP_NEWLINE))
        fwrite(text, 1, len, f);
    else if (lab_utf8_shown(&shown, text, len, LAB_UTF8_KEEP_NEWLINE) == 0)
        fputs(shown.buf, f);
    lab_buf_release(&shown);
}

int
lab_cli_error(const char *fmt, ...)
{
    lab_buf msg = LAB_BUF_INIT;
    va_list ap;

    lab_buf_adds(&msg, "cudalab: ");
    va_start(ap, fmt);
    lab_buf_vprintf(&msg, fmt, ap);
    va_end(ap);
    lab_buf_addch(&msg, '\n');
    lab_cli_put_shown(stderr, msg.buf, msg.len); /* a message may quote a student's file name */
    lab_buf_release(&msg);
    return LAB_EXIT_ERROR;
}

static const char *
exercise_id(const void *cat, size_t i)
{
    return i < lab_catalog_exercise_count(cat) ? lab_catalog_exercise(cat, i)->id : NULL;
}

const lab_exercise *
lab_cli_exercise(lab_cli *cli, const char *id)
{
    const lab_catalog *cat = lab_catalog_of(cli->lab);
    const lab_exercise *ex = lab_catalog_find(cat, id);
    const char *why = lab_catalog_why_broken(cat, id);

    if (ex)
        return ex;
    if (why) {
        fprintf(stderr, _("cudalab: exercise '%s' is broken: %s\n"), id, why);
        return NULL;
    }
    lab_cli_unknown(cli, N_("exercise"), id, exercise_id, cat, N_("list shows them all"));
    return NULL;
}

const lab_cli_param lab_cli_exercise_args[] = {
    LAB_CLI_ARG("EXERCISE", LAB_CLI_EXERCISE, LAB_CLI_REQUIRED, "the exercise, CHAPTER/EXERCISE"),
    LAB_CLI_END,
};

const lab_cli_param lab_cli_exercise_file_args[] = {
    LAB_CLI_ARG("EXERCISE", LAB_CLI_EXERCISE, LAB_CLI_REQUIRED, "the exercise, CHAPTER/EXERCISE"),
    LAB_CLI_ARG("FILE", LAB_CLI_SOURCE, LAB_CLI_OPTIONAL,
                "your kernel file (default work/CHAPTER/EXERCISE.cu)"),
    LAB_CLI_END,
};

const lab_exercise *
lab_cli_exercise_file(lab_cli *cli, const lab_cli_args *args, lab_buf *work, const char **file_out)
{
    const lab_exercise *ex = lab_cli_exercise(cli, lab_cli_args_pos(args, 0));

    *file_out = lab_cli_args_pos(args, 1);
    if (ex && !*file_out) {
        lab_work_path(ex, work);
        *file_out = work->buf;
    }
    return ex;
}

const char *
lab_cli_sgr(const lab_cli *cli, const char *params)
{
    static char buf[32];

    if (!cli->color)
        return "";
    snprintf(buf, sizeof(buf), "\033[%sm", params);
    return buf;
}

const char *
lab_cli_reset(const lab_cli *cli)
{
    return cli->color ? "\033[0m" : "";
}
