/*
 * cmd-hint.c - `cudalab hint EXERCISE [N]`: the exercise's hints, one at a time: hint N, by
 * default the one after the last the learner has seen of that exercise, in the CLI, the shell
 * or the menu alike (the store keeps the count: lab_store_hints_seen).  The hint's Markdown is
 * laid out for the terminal (lab_cli_print_markdown).
 */
#include "lab/cli/cli.h"

#include <string.h>

static int
hint_run(lab_cli *cli, const lab_cli_args *args)
{
    const lab_exercise *ex;
    lab_store *st = NULL;
    lab_err err = LAB_ERR_INIT;
    size_t seen = 0;
    uint64_t n;
    int rc;

    if (!(ex = lab_cli_exercise(cli, lab_cli_args_pos(args, 0))))
        return LAB_EXIT_ERROR;
    if (!ex->nhints)
        return lab_cli_error(_("%s has no hints"), ex->id);
    /* no store (a read-only home): every hint is the first one shown, as before */
    if (lab_store_of(cli->lab, &st, &err) < 0 || lab_store_hints_seen(st, ex->id, &seen, &err) < 0)
        st = NULL;
    n = lab_cli_args_pos_number(args, 1, seen + 1);
    if (n > ex->nhints && !lab_cli_args_pos(args, 1)) {
        printf(cli->shell ? _("No more hints: you have seen all %zu (hint N shows hint N again).\n")
                          : _("No more hints: you have seen all %zu (cudalab hint %s N shows "
                              "hint N again).\n"),
               ex->nhints, ex->id);
        return LAB_EXIT_OK;
    }
    if (n > ex->nhints)
        return lab_cli_error(_("hint: N must be 1 to %zu"), ex->nhints);
    if (n > seen && st)
        lab_store_set_hints_seen(st, ex->id, n, &err);
    printf(_("%sHint %llu of %zu%s for %s:\n\n"), lab_cli_sgr(cli, "1"), (unsigned long long)n,
           ex->nhints, lab_cli_reset(cli), ex->id);
    if ((rc = lab_cli_print_markdown(cli, ex->local_hints[n - 1], strlen(ex->local_hints[n - 1]))) <
        0)
        return lab_cli_error(_("cannot lay out hint %llu: %s"), (unsigned long long)n,
                             lab_strerror(rc));
    if (n < ex->nhints && cli->shell)
        printf(_("(next: hint)\n"));
    else if (n < ex->nhints)
        printf(_("(next: cudalab hint %s)\n"), ex->id);
    return LAB_EXIT_OK;
}

static const lab_cli_param args[] = {
    LAB_CLI_ARG("EXERCISE", LAB_CLI_EXERCISE, LAB_CLI_REQUIRED, "whose hint to show"),
    { .name = "N",
      .type = LAB_CLI_NUMBER,
      .min = 1,
      .help = N_("which hint, from 1 (default: the one after the last you have seen)") },
    LAB_CLI_END,
};

const lab_cmd lab_cmd_hint = {
    .name = "hint",
    .help = N_("show the next hint of an exercise, or hint N"),
    .args = args,
    .run = hint_run,
};
