/*
 * cmd-gradebook.c - `cudalab gradebook merge --out DIR PART... [--format
 * gradescope]`: one gradebook from the results of several batches (the
 * tasks of a Slurm array).
 */
#include "lab/cli/cli.h"
#include "lab/batch/batch.h"

#include <string.h>

static int
gradebook_run(lab_cli *cli, int argc, char **argv)
{
    lab_strvec parts = LAB_STRVEC_INIT;
    lab_err err = LAB_ERR_INIT;
    const char *out = NULL;
    bool gradescope = false;
    size_t flagged = 0;
    int status = LAB_EXIT_OK;

    (void)cli;
    if (argc < 1 || strcmp(argv[0], "merge"))
        return lab_cli_error("usage: cudalab gradebook %s", lab_cmd_gradebook.args);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--out") && i + 1 < argc)
            out = argv[++i];
        else if (!strcmp(argv[i], "--format") && i + 1 < argc && !strcmp(argv[i + 1], "gradescope"))
            gradescope = true, i++;
        else if (argv[i][0] == '-')
            status = lab_cli_error("gradebook merge: bad option '%s'", argv[i]);
        else
            lab_strvec_push(&parts, argv[i]);
    }
    if (status == LAB_EXIT_OK && (!out || !parts.n))
        status = lab_cli_error("usage: cudalab gradebook %s", lab_cmd_gradebook.args);
    if (status == LAB_EXIT_OK && lab_gradebook_write(out, (const char *const *)parts.v, parts.n,
                                                     gradescope, &flagged, &err) < 0)
        status = lab_cli_error("gradebook merge: %s", err.msg);
    if (status == LAB_EXIT_OK)
        printf("merged %zu parts into %s/gradebook.csv (%zu flagged)\n", parts.n, out, flagged);
    lab_strvec_release(&parts);
    return status;
}

const lab_cmd lab_cmd_gradebook = {
    .name = "gradebook",
    .args = "merge --out DIR PART... [--format gradescope]",
    .help = "merge the results of several batches (Slurm array tasks) into one gradebook",
    .complete = { LAB_COMPLETE_FILE, LAB_COMPLETE_FILE },
    .run = gradebook_run,
};
