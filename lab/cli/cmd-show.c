/*
 * cmd-show.c - `cudalab show EXERCISE`: the task text and the file to edit.
 */
#include "lab/cli/cli.h"

#include <unistd.h>

static int
show_run(lab_cli *cli, const lab_cli_args *args)
{
    const lab_exercise *ex;
    lab_buf text = LAB_BUF_INIT, work = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;

    if (!(ex = lab_cli_exercise(cli, lab_cli_args_pos(args, 0))))
        return LAB_EXIT_ERROR;
    if (lab_buf_read_regular(&text, ex->task, LAB_CATALOG_TEXT_CAP, &err) < 0)
        return lab_cli_error("%s", err.msg);
    lab_work_path(ex, &work);
    printf("%s%s%s: %s\n\n%s\n", lab_cli_sgr(cli, "1"), ex->id, lab_cli_reset(cli), ex->title,
           text.buf);
    printf("Kernel: %s   family: %s   block:", ex->kernel, ex->family);
    for (size_t i = 0; i < ex->nblocks; i++) {
        char shape[48];
        lab_block_shape_format(&ex->blocks[i], shape, sizeof(shape));
        printf("%s%s", i ? ", " : " ", shape);
    }
    printf("   sizes:");
    for (size_t i = 0; i < ex->nsizes; i++)
        printf(" %lu", ex->sizes[i]);
    printf("\nFile to edit: %s%s\n", work.buf,
           access(work.buf, F_OK) == 0 ? "" : "  (not there yet: cudalab start first)");
    if (ex->nhints)
        printf("Hints: %zu (in %s/hints.md)\n", ex->nhints, ex->dir);
    lab_buf_release(&text);
    lab_buf_release(&work);
    return LAB_EXIT_OK;
}

const lab_cmd lab_cmd_show = {
    .name = "show",
    .help = "show the task and the file to edit",
    .args = lab_cli_exercise_args,
    .run = show_run,
};
