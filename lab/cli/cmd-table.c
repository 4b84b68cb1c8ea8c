/*
 * cmd-table.c - the one list of commands, and helpers every command shares.
 */
#include "lab/cli/cli.h"

#include <stdarg.h>
#include <string.h>

const lab_cmd *const lab_cmds[] = {
    &lab_cmd_list,         &lab_cmd_show,           &lab_cmd_start,   &lab_cmd_grade,
    &lab_cmd_demo,         &lab_cmd_watch,          &lab_cmd_hint,    &lab_cmd_reset,
    &lab_cmd_history,      &lab_cmd_inspect,        &lab_cmd_profile, &lab_cmd_predict,
    &lab_cmd_device,       &lab_cmd_doctor,         &lab_cmd_menu,    &lab_cmd_shell,
    &lab_cmd_new_exercise, &lab_cmd_check_exercise, &lab_cmd_batch,   &lab_cmd_gradebook,
    &lab_cmd_calibrate,    &lab_cmd_help,
};
const size_t lab_cmd_count = ARRAY_SIZE(lab_cmds);

const lab_cmd *
lab_cli_find(const char *name)
{
    for (size_t i = 0; i < lab_cmd_count; i++)
        if (!strcmp(lab_cmds[i]->name, name))
            return lab_cmds[i];
    return NULL;
}

void
lab_cli_dump_commands(FILE *fp)
{
    static const char *const kinds[] = {
        [LAB_COMPLETE_NONE] = "none",
        [LAB_COMPLETE_EXERCISE] = "exercise",
        [LAB_COMPLETE_FILE] = "file",
    };

    for (size_t i = 0; i < lab_cmd_count; i++)
        fprintf(fp, "%s\t%s\t%s\t%s\t%s\n", lab_cmds[i]->name, lab_cmds[i]->args, lab_cmds[i]->help,
                kinds[lab_cmds[i]->complete[0]], kinds[lab_cmds[i]->complete[1]]);
}

int
lab_cli_dispatch(lab_cli *cli, int argc, char **argv)
{
    const lab_cmd *cmd = argc > 0 ? lab_cli_find(argv[0]) : NULL;

    if (!cmd)
        return lab_cli_error("unknown command '%s' (try: help)", argc > 0 ? argv[0] : "");
    cli->json = false;
    return cmd->run(cli, argc - 1, argv + 1);
}

int
lab_cli_error(const char *fmt, ...)
{
    va_list ap;

    fputs("cudalab: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return LAB_EXIT_ERROR;
}

const lab_exercise *
lab_cli_exercise(lab_cli *cli, const char *id)
{
    const lab_catalog *cat = lab_catalog_of(cli->lab);
    const lab_exercise *ex = lab_catalog_find(cat, id);

    if (ex)
        return ex;
    fprintf(stderr, "cudalab: unknown exercise '%s'; the exercises are:\n", id);
    for (size_t i = 0; i < lab_catalog_exercise_count(cat); i++)
        fprintf(stderr, "    %s\n", lab_catalog_exercise(cat, i)->id);
    return NULL;
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
