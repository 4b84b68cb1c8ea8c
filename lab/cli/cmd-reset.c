/*
 * cmd-reset.c - `cudalab reset EXERCISE --yes`: the starter over the
 * student's file, the old file kept as FILE.N.bak.
 */
#include "lab/cli/cli.h"

static int
reset_run(lab_cli *cli, const lab_cli_args *args)
{
    const lab_exercise *ex;
    lab_buf work = LAB_BUF_INIT, backup = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    int status = LAB_EXIT_OK;

    if (!(ex = lab_cli_exercise(cli, lab_cli_args_pos(args, 0))))
        return LAB_EXIT_ERROR;
    if (lab_work_reset(ex, &work, &backup, &err) < 0)
        status = lab_cli_error("%s", err.msg);
    else if (backup.len)
        printf(_("Reset %s to the starter; your version is in %s\n"), work.buf, backup.buf);
    else
        printf(_("Created %s from the starter.\n"), work.buf);
    lab_buf_release(&work);
    lab_buf_release(&backup);
    return status;
}

static const lab_cli_param opts[] = {
    { .name = "yes", .occurs = LAB_CLI_REQUIRED, .help = N_("yes, reset it (kept as FILE.N.bak)") },
    LAB_CLI_END,
};

const lab_cmd lab_cmd_reset = {
    .name = "reset",
    .help = N_("put the starter back in your file, keeping a backup"),
    .args = lab_cli_exercise_args,
    .opts = opts,
    .run = reset_run,
};
