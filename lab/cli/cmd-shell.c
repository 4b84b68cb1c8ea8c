/*
 * cmd-shell.c - `cudalab shell`: the commands of this table at a readline
 * prompt (lab/shell), or read line by line from a pipe.
 */
#include "lab/cli/cli.h"
#include "lab/shell/shell.h"

static int
shell_run(lab_cli *cli, const lab_cli_args *args)
{
    (void)args;
    return lab_shell_run(cli);
}

const lab_cmd lab_cmd_shell = {
    .name = "shell",
    .help = N_("a command shell with completion and history (reads a script from a pipe)"),
    .run = shell_run,
};
