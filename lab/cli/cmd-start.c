/*
 * cmd-start.c - `cudalab start EXERCISE`: copy the starter to
 * work/<chapter>/<exercise>.cu under the current folder, never over an
 * existing file, and say where that is (the student's work folder is wherever
 * they run the lab; the lab's own files are installed elsewhere).
 */
#include "lab/cli/cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void
print_work_folder(void)
{
    char *cwd = getcwd(NULL, 0);

    if (cwd)
        printf("Your work folder: %s/work (run cudalab from %s to grade it)\n", cwd, cwd);
    free(cwd);
}

static int
start_run(lab_cli *cli, int argc, char **argv)
{
    const lab_exercise *ex;
    lab_buf work = LAB_BUF_INIT, dir = LAB_BUF_INIT, text = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    int status = LAB_EXIT_OK;

    if (argc != 1)
        return lab_cli_error("usage: cudalab start EXERCISE");
    if (!(ex = lab_cli_exercise(cli, argv[0])))
        return LAB_EXIT_ERROR;
    lab_work_path(ex, &work);
    if (access(work.buf, F_OK) == 0) {
        printf("%s already exists: edit it, then run: cudalab grade %s\n", work.buf, ex->id);
        print_work_folder();
        goto out;
    }
    lab_buf_printf(&dir, "work/%s", ex->chapter);
    if ((mkdir("work", 0755) < 0 && errno != EEXIST) ||
        (mkdir(dir.buf, 0755) < 0 && errno != EEXIST)) {
        status = lab_cli_error("cannot create '%s': %s", dir.buf, strerror(errno));
        goto out;
    }
    if (lab_buf_read_file(&text, ex->starter, &err) < 0 ||
        lab_write_file(work.buf, text.buf, text.len, &err) < 0) {
        status = lab_cli_error("%s", err.msg);
        goto out;
    }
    printf("Created %s from the starter.\nRead the task:  cudalab show %s\nThen grade:     "
           "cudalab grade %s\n",
           work.buf, ex->id, ex->id);
    print_work_folder();
out:
    lab_buf_release(&work);
    lab_buf_release(&dir);
    lab_buf_release(&text);
    return status;
}

const lab_cmd lab_cmd_start = {
    .name = "start",
    .args = "EXERCISE",
    .help = "copy the exercise's starter to work/CHAPTER/EXERCISE.cu",
    .complete = { LAB_COMPLETE_EXERCISE },
    .run = start_run,
};
