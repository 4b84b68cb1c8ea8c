/*
 * cmd-check-exercise.c - `cudalab check-exercise EXERCISE... | --all`: the
 * author's check of an exercise (lab/grade/excheck.h); every problem as
 * "file:line: message", then one summary line.  Exit 0 when nothing failed.
 */
#include "lab/cli/cli.h"
#include "lab/grade/excheck.h"

#include <string.h>

static int
check_exercise_run(lab_cli *cli, int argc, char **argv)
{
    lab_err err = LAB_ERR_INIT;
    lab_excheck c;
    bool all = false;
    int nids = 0, rc = 0;

    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--all"))
            all = true;
        else if (argv[i][0] == '-')
            return lab_cli_error("check-exercise: unknown option '%s'", argv[i]);
        else
            nids++;
    }
    if (all == (nids > 0))
        return lab_cli_error("usage: cudalab check-exercise EXERCISE... | --all");
    lab_excheck_init(&c);
    if (all)
        rc = lab_excheck_run_all(cli->lab, NULL, &c, &err);
    for (int i = 0; rc == 0 && !all && i < argc; i++)
        rc = lab_excheck_run(cli->lab, argv[i], NULL, &c, &err);
    for (size_t i = 0; i < c.notes.n; i++)
        printf("%s\n", c.notes.v[i]);
    for (size_t i = 0; i < c.problems.n; i++)
        printf("%s\n", c.problems.v[i]);
    if (rc < 0) {
        lab_excheck_release(&c);
        return lab_cli_error("check-exercise: %s", err.msg);
    }
    printf("check-exercise: %d checks, %d examples, %d failed", c.checks, c.examples, c.failed);
    if (c.unchecked)
        printf(", %d not run on a GPU: speed was not checked (nor correctness, but on the "
               "simulator)",
               c.unchecked);
    printf("\n");
    rc = c.failed ? LAB_EXIT_VERDICT : LAB_EXIT_OK;
    lab_excheck_release(&c);
    return rc;
}

const lab_cmd lab_cmd_check_exercise = {
    .name = "check-exercise",
    .args = "EXERCISE... | --all",
    .help = "validate an exercise: manifest, files, solution passes, starter does not, examples",
    .complete = { LAB_COMPLETE_EXERCISE, LAB_COMPLETE_NONE },
    .run = check_exercise_run,
};
