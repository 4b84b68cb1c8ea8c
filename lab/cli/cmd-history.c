/*
 * cmd-history.c - `cudalab history EXERCISE`: every attempt, oldest first,
 * with its verdict and time.
 */
#include "lab/cli/cli.h"

#include <time.h>

static int
print_attempt(const lab_attempt *a, void *arg)
{
    int *n = arg;
    char when[32];
    time_t t = (time_t)a->time;

    strftime(when, sizeof(when), "%Y-%m-%d %H:%M", localtime(&t));
    printf("  %3d  %s  %-14s", ++*n, when, a->verdict);
    if (a->median_ns > 0)
        printf(" %10.2f us  %5.2fx", a->median_ns / 1e3, a->speedup);
    printf("\n");
    return 0;
}

static int
history_run(lab_cli *cli, const lab_cli_args *args)
{
    const lab_exercise *ex;
    lab_err err = LAB_ERR_INIT;
    lab_store *st;
    int n = 0;

    if (!(ex = lab_cli_exercise(cli, lab_cli_args_pos(args, 0))))
        return LAB_EXIT_ERROR;
    if (lab_store_of(cli->lab, &st, &err) < 0 ||
        lab_store_history(st, ex->id, print_attempt, &n, &err) < 0)
        return lab_cli_error("%s", err.msg);
    if (!n)
        printf(_("no attempts at %s yet\n"), ex->id);
    return LAB_EXIT_OK;
}

const lab_cmd lab_cmd_history = {
    .name = "history",
    .help = N_("list your attempts at an exercise"),
    .args = lab_cli_exercise_args,
    .run = history_run,
};
