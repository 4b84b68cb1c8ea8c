/*
 * cmd-gradebook.c - `cudalab gradebook merge --out DIR PART... [--format
 * gradescope]`: one gradebook from the results of several batches (the
 * tasks of a Slurm array).
 */
#include "lab/cli/cli.h"
#include "lab/batch/batch.h"

static int
gradebook_run(lab_cli *cli, const lab_cli_args *args)
{
    const char *out = lab_cli_args_value(args, "out");
    lab_strvec parts = LAB_STRVEC_INIT;
    lab_err err = LAB_ERR_INIT;
    size_t flagged = 0;
    int status = LAB_EXIT_OK;

    (void)cli;
    for (size_t i = 1; i < args->npos; i++) /* after "merge" */
        lab_strvec_push(&parts, lab_cli_args_pos(args, i));
    if (lab_gradebook_write(out, (const char *const *)parts.v, parts.n,
                            lab_cli_args_has(args, "format"), &flagged, &err) < 0)
        status = lab_cli_error("gradebook merge: %s", err.msg);
    else
        printf("merged %zu parts into %s/gradebook.csv (%zu flagged)\n", parts.n, out, flagged);
    lab_strvec_release(&parts);
    return status;
}

static const char *const actions[] = { "merge", NULL };
static const char *const formats[] = { "gradescope", NULL };

static const lab_cli_param args[] = {
    LAB_CLI_ARG_CHOICE("merge", LAB_CLI_REQUIRED, actions, "what to do: merge, the only action"),
    LAB_CLI_ARG("PART", LAB_CLI_DIR, LAB_CLI_REPEATED, "a batch's output folder (its results/)"),
    LAB_CLI_END,
};
static const lab_cli_param opts[] = {
    LAB_CLI_OPT_OCCURS("out", LAB_CLI_DIR, "DIR", LAB_CLI_REQUIRED,
                       "where to write gradebook.csv and gradebook.json"),
    LAB_CLI_OPT_CHOICE("format", NULL, formats, "also gradescope/<id>/results.json"),
    LAB_CLI_END,
};

const lab_cmd lab_cmd_gradebook = {
    .name = "gradebook",
    .help = N_("merge the results of several batches (Slurm array tasks) into one gradebook"),
    .args = args,
    .opts = opts,
    .group = LAB_CLI_TEACH,
    .machine_output = true,
    .run = gradebook_run,
};
