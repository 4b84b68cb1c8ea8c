/*
 * cmd-menu.c - `cudalab menu` (and `cudalab` alone on a terminal): the
 * full-screen menu of lab/menu.
 */
#include "lab/cli/cli.h"
#include "lab/menu/menu.h"

#include <unistd.h>

static int
menu_run(lab_cli *cli, const lab_cli_args *args)
{
    const lab_menu_opts opts = { .color = cli->color };
    lab_err err = LAB_ERR_INIT;

    (void)args;
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
        return lab_cli_error(_("the menu needs a terminal (try: cudalab list, or cudalab shell)"));
    if (lab_menu_run(cli->lab, &opts, &err) < 0)
        return lab_cli_error("%s", err.msg);
    return LAB_EXIT_OK;
}

const lab_cmd lab_cmd_menu = {
    .name = "menu",
    .help = N_("open the full-screen menu (what `cudalab` alone does on a terminal)"),
    .run = menu_run,
};
