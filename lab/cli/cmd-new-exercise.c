/*
 * cmd-new-exercise.c - `cudalab new-exercise CHAPTER/NAME --family FAMILY
 * [--like CHAPTER/OTHER]`: scaffold an exercise (lab/catalog/scaffold.h) and
 * say what to fill in.
 */
#include "lab/cli/cli.h"
#include "lab/catalog/scaffold.h"

#include <string.h>

static int
new_exercise_run(lab_cli *cli, int argc, char **argv)
{
    const char *id = NULL, *family = NULL, *like = NULL;
    lab_strvec created = LAB_STRVEC_INIT;
    lab_buf known = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    const lab_family *fam;

    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--family") && i + 1 < argc)
            family = argv[++i];
        else if (!strcmp(argv[i], "--like") && i + 1 < argc)
            like = argv[++i];
        else if (argv[i][0] == '-')
            return lab_cli_error("new-exercise: unknown option '%s'", argv[i]);
        else if (!id)
            id = argv[i];
        else
            return lab_cli_error("new-exercise: unexpected argument '%s'", argv[i]);
    }
    if (!id || !family)
        return lab_cli_error("usage: cudalab new-exercise CHAPTER/NAME --family FAMILY "
                             "[--like CHAPTER/OTHER]");
    if (!(fam = lab_family_find(family))) {
        for (size_t i = 0; i < lab_family_count; i++)
            lab_buf_printf(&known, "%s%s", i ? ", " : "", lab_families[i].name);
        lab_cli_error("new-exercise: unknown family '%s' (the families are: %s)", family,
                      known.buf);
        lab_buf_release(&known);
        return LAB_EXIT_ERROR;
    }
    if (lab_scaffold_exercise(lab_datadir(cli->lab), lab_catalog_of(cli->lab), id, fam, like,
                              &created, &err) < 0) {
        lab_strvec_release(&created);
        return lab_cli_error("new-exercise: %s", err.msg);
    }
    printf("created %s:\n", id);
    for (size_t i = 0; i < created.n; i++)
        printf("  %s\n", created.v[i]);
    printf("now fill in:\n"
           "  exercise.ini   the title, kernel, baseline, sizes and thresholds marked TODO\n"
           "  task.md        what to do; hints.md: one '## ' section per hint\n"
           "  starter.cu     what the student starts from (it must not pass)\n"
           "  solutions/     the reference (it must pass); same kernel name as the starter\n"
           "  examples/      wrong/ (3 or more) and cheat/ (2 or more) submissions, each\n"
           "                 starting with '// expect: VERDICT (why)'\n"
           "then run: cudalab check-exercise %s\n",
           id);
    lab_strvec_release(&created);
    return LAB_EXIT_OK;
}

const lab_cmd lab_cmd_new_exercise = {
    .name = "new-exercise",
    .args = "CHAPTER/NAME --family FAMILY [--like CHAPTER/OTHER]",
    .help = "scaffold a new exercise: manifest, task, starter, solution, examples",
    .complete = { LAB_COMPLETE_EXERCISE, LAB_COMPLETE_NONE },
    .run = new_exercise_run,
};
