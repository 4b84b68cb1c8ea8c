/*
 * cmd-start.c - `cudalab start EXERCISE`: copy the starter to
 * work/<chapter>/<exercise>.cu under the current folder, never over an
 * existing file, and say where that is (the student's work folder is wherever
 * they run the lab; the lab's own files are installed elsewhere).
 */
#include "lab/cli/cli.h"

#include <stdlib.h>
#include <unistd.h>

static void
print_work_folder(void)
{
    char *cwd = getcwd(NULL, 0);

    if (cwd)
        printf(_("Your work folder: %s/work (run cudalab from %s to grade it)\n"), cwd, cwd);
    free(cwd);
}

static int
start_run(lab_cli *cli, const lab_cli_args *args)
{
    const lab_exercise *ex;
    lab_buf work = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    int status = LAB_EXIT_OK;
    bool created;

    if (!(ex = lab_cli_exercise(cli, lab_cli_args_pos(args, 0))))
        return LAB_EXIT_ERROR;
    if (lab_work_start(ex, &work, &created, &err) < 0) {
        status = lab_cli_error("%s", err.msg);
    } else if (!created) {
        printf(_("%s already exists: edit it, then run: cudalab grade %s\n"), work.buf, ex->id);
        print_work_folder();
    } else {
        printf(_("Created %s from the starter.\nRead the task:  cudalab show %s\nThen grade:     "
                 "cudalab grade %s\n"),
               work.buf, ex->id, ex->id);
        print_work_folder();
    }
    lab_buf_release(&work);
    return status;
}

const lab_cmd lab_cmd_start = {
    .name = "start",
    .help = N_("copy the exercise's starter to work/CHAPTER/EXERCISE.cu"),
    .args = lab_cli_exercise_args,
    .run = start_run,
};
