/*
 * cmd-show.c - `cudalab show EXERCISE`: the task text, laid out for the terminal from its
 * Markdown, the file to edit and how to see the hints (one at a time: their file would give
 * them all away).
 */
#include "lab/cli/cli.h"

#include <unistd.h>

/* The command cmd on ex as the student types it: "cudalab hint EX"; in the shell "hint", for
 * show made ex the current exercise. */
static const char *
command_on(const lab_cli *cli, const char *cmd, const lab_exercise *ex, lab_buf *out)
{
    lab_buf_reset(out);
    if (cli->shell)
        lab_buf_adds(out, cmd);
    else
        lab_buf_printf(out, "cudalab %s %s", cmd, ex->id);
    return out->buf;
}

static int
show_run(lab_cli *cli, const lab_cli_args *args)
{
    const lab_exercise *ex;
    lab_buf text = LAB_BUF_INIT, work = LAB_BUF_INIT, form = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    int rc;

    if (!(ex = lab_cli_exercise(cli, lab_cli_args_pos(args, 0))))
        return LAB_EXIT_ERROR;
    if (lab_catalog_read_text(lab_catalog_of(cli->lab), ex->local_task, &text, &err) < 0) {
        lab_buf_release(&text);
        return lab_cli_error("%s", err.msg);
    }
    lab_work_path(ex, &work);
    printf("%s%s%s: %s\n\n", lab_cli_sgr(cli, "1"), ex->id, lab_cli_reset(cli), ex->local_title);
    if (ex->translation_note)
        printf("(%s)\n\n", ex->translation_note);
    if ((rc = lab_cli_print_markdown(cli, text.buf, text.len)) < 0) {
        lab_buf_release(&text);
        lab_buf_release(&work);
        return lab_cli_error(_("cannot lay out '%s': %s"), ex->local_task, lab_strerror(rc));
    }
    printf(_("\nKernel: %s   family: %s\nBlock:"), ex->kernel, ex->family);
    for (size_t i = 0; i < ex->nblocks; i++) {
        char shape[48];
        lab_block_shape_format(&ex->blocks[i], shape, sizeof(shape));
        printf("%s%s", i ? ", " : " ", shape);
    }
    printf("%s", _("   sizes:"));
    for (size_t i = 0; i < ex->nsizes; i++)
        printf(" %lu", ex->sizes[i]);
    printf(_("\nFile to edit: %s\n"), work.buf);
    if (access(work.buf, F_OK) < 0)
        printf(_("(not there yet: %s makes it)\n"), command_on(cli, "start", ex, &form));
    if (ex->nhints)
        printf(_("Hints: %zu, one at a time: %s\n"), ex->nhints,
               command_on(cli, "hint", ex, &form));
    lab_buf_release(&text);
    lab_buf_release(&work);
    lab_buf_release(&form);
    return LAB_EXIT_OK;
}

const lab_cmd lab_cmd_show = {
    .name = "show",
    .help = N_("show the task and the file to edit"),
    .args = lab_cli_exercise_args,
    .run = show_run,
};
