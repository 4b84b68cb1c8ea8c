/*
 * cmd-hint.c - `cudalab hint EXERCISE [N]`: the exercise's hints, one at a
 * time (hint N, default 1).
 */
#include "lab/cli/cli.h"

#include <stdlib.h>

static int
hint_run(lab_cli *cli, int argc, char **argv)
{
    const lab_exercise *ex;
    unsigned long n = 1;

    if (argc < 1 || argc > 2)
        return lab_cli_error("usage: cudalab hint EXERCISE [N]");
    if (!(ex = lab_cli_exercise(cli, argv[0])))
        return LAB_EXIT_ERROR;
    if (!ex->nhints)
        return lab_cli_error("%s has no hints", ex->id);
    if (argc == 2) {
        char *end;
        n = strtoul(argv[1], &end, 10);
        if (*end || n < 1 || n > ex->nhints)
            return lab_cli_error("hint: N must be 1 to %zu", ex->nhints);
    }
    printf("Hint %lu of %zu for %s:\n\n%s\n", n, ex->nhints, ex->id, ex->hints[n - 1]);
    if (n < ex->nhints)
        printf("(next: cudalab hint %s %lu)\n", ex->id, n + 1);
    return LAB_EXIT_OK;
}

const lab_cmd lab_cmd_hint = {
    .name = "hint",
    .args = "EXERCISE [N]",
    .help = "show hint N (default 1) of an exercise",
    .complete = { LAB_COMPLETE_EXERCISE },
    .run = hint_run,
};
