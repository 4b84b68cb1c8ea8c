/*
 * cmd-hint.c - `cudalab hint EXERCISE [N]`: the exercise's hints, one at a time: hint N, by
 * default 1 in the CLI; in the shell, the one after the last it showed for that exercise.
 * The hint's Markdown is laid out for the terminal (lab_cli_print_markdown).
 */
#include "lab/cli/cli.h"

#include <string.h>

static int
hint_run(lab_cli *cli, const lab_cli_args *args)
{
    const lab_exercise *ex;
    uint64_t n;
    int rc;

    if (!(ex = lab_cli_exercise(cli, lab_cli_args_pos(args, 0))))
        return LAB_EXIT_ERROR;
    if (!ex->nhints)
        return lab_cli_error(_("%s has no hints"), ex->id);
    if (cli->hint_ex != ex) { /* the shell counts the hints of one exercise at a time */
        cli->hint_ex = ex;
        cli->hints_shown = 0;
    }
    n = lab_cli_args_pos_number(args, 1, cli->shell ? cli->hints_shown + 1 : 1);
    if (n > ex->nhints && !lab_cli_args_pos(args, 1)) {
        printf(_("No more hints: you have seen all %zu (hint N shows hint N again).\n"),
               ex->nhints);
        return LAB_EXIT_OK;
    }
    if (n > ex->nhints)
        return lab_cli_error(_("hint: N must be 1 to %zu"), ex->nhints);
    if (n > cli->hints_shown)
        cli->hints_shown = n;
    printf(_("%sHint %llu of %zu%s for %s:\n\n"), lab_cli_sgr(cli, "1"), (unsigned long long)n,
           ex->nhints, lab_cli_reset(cli), ex->id);
    if ((rc = lab_cli_print_markdown(cli, ex->local_hints[n - 1], strlen(ex->local_hints[n - 1]))) <
        0)
        return lab_cli_error(_("cannot lay out hint %llu: %s"), (unsigned long long)n,
                             lab_strerror(rc));
    if (n < ex->nhints && cli->shell)
        printf(_("(next: hint)\n"));
    else if (n < ex->nhints)
        printf(_("(next: cudalab hint %s %llu)\n"), ex->id, (unsigned long long)n + 1);
    return LAB_EXIT_OK;
}

static const lab_cli_param args[] = {
    LAB_CLI_ARG("EXERCISE", LAB_CLI_EXERCISE, LAB_CLI_REQUIRED, "whose hint to show"),
    { .name = "N",
      .type = LAB_CLI_NUMBER,
      .min = 1,
      .help = N_("which hint, from 1 (default 1; in the shell, the next one)") },
    LAB_CLI_END,
};

const lab_cmd lab_cmd_hint = {
    .name = "hint",
    .help = N_("show hint N of an exercise (the shell: the next hint)"),
    .args = args,
    .run = hint_run,
};
