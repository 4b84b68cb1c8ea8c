/*
 * cmd-hint.c - `cudalab hint EXERCISE [N]`: the exercise's hints, one at a
 * time (hint N, default 1).
 */
#include "lab/cli/cli.h"

static int
hint_run(lab_cli *cli, const lab_cli_args *args)
{
    uint64_t n = lab_cli_args_pos_number(args, 1, 1);
    const lab_exercise *ex;

    if (!(ex = lab_cli_exercise(cli, lab_cli_args_pos(args, 0))))
        return LAB_EXIT_ERROR;
    if (!ex->nhints)
        return lab_cli_error("%s has no hints", ex->id);
    if (n > ex->nhints)
        return lab_cli_error("hint: N must be 1 to %zu", ex->nhints);
    printf("Hint %llu of %zu for %s:\n\n%s\n", (unsigned long long)n, ex->nhints, ex->id,
           ex->hints[n - 1]);
    if (n < ex->nhints)
        printf("(next: cudalab hint %s %llu)\n", ex->id, (unsigned long long)n + 1);
    return LAB_EXIT_OK;
}

static const lab_cli_param args[] = {
    LAB_CLI_ARG("EXERCISE", LAB_CLI_EXERCISE, LAB_CLI_REQUIRED, "whose hint to show"),
    { .name = "N", .type = LAB_CLI_NUMBER, .min = 1, .help = "which hint, from 1" },
    LAB_CLI_END,
};

const lab_cmd lab_cmd_hint = {
    .name = "hint",
    .help = "show hint N (default 1) of an exercise",
    .args = args,
    .run = hint_run,
};
