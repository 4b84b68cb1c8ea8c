/*
 * cmd-help.c - `cudalab help [COMMAND]`: the command table, as text.
 */
#include "lab/cli/cli.h"

void
lab_cli_print_usage(const lab_cmd *cmd, FILE *fp)
{
    fprintf(fp, "usage: cudalab %s %s\n%s\n", cmd->name, cmd->args, cmd->help);
}

static int
help_run(lab_cli *cli, int argc, char **argv)
{
    (void)cli;
    if (argc > 0) {
        const lab_cmd *cmd = lab_cli_find(argv[0]);
        if (!cmd)
            return lab_cli_error("unknown command '%s'", argv[0]);
        lab_cli_print_usage(cmd, stdout);
        return LAB_EXIT_OK;
    }
    printf("usage: cudalab COMMAND [ARGS]\n\n");
    for (size_t i = 0; i < lab_cmd_count; i++)
        printf("  %-8s %-28s %s\n", lab_cmds[i]->name, lab_cmds[i]->args, lab_cmds[i]->help);
    printf("\nExercise ids are CHAPTER/EXERCISE, e.g. reduction/neighbored-less.\n"
           "Exit status: 0 pass, 1 any other verdict, 2 usage or lab error.\n");
    return LAB_EXIT_OK;
}

const lab_cmd lab_cmd_help = {
    .name = "help",
    .args = "[COMMAND]",
    .help = "show the commands, or one command's usage",
    .run = help_run,
};
