/*
 * cmd-calibrate.c - `cudalab calibrate [EXERCISE... | --all]`: grade each reference solution on
 * the GPU in use and show, per step, the reference's speed-up here, the manifest's line (set on
 * an H100), the line every grading on this GPU derives from its own run (lab/grade/speedline.h)
 * and whether the step's lesson shows here.  Nothing is stored: a grading measures its
 * reference anyway, so no instructor step is needed before students grade.  Needs a GPU.
 */
#include "lab/cli/cli.h"

#include <string.h>

/* One exercise's line: 0, or the CLI's error status. */
static int
calibrate_one(lab_cli *cli, const lab_exercise *ex)
{
    lab_grade_request req = { .ex = ex, .file = ex->solution };
    lab_err err = LAB_ERR_INIT;
    lab_grading g;
    const lab_speed_line *line = &g.result.line;
    int status = LAB_EXIT_OK;
    char here[32];

    lab_grading_init(&g);
    if (lab_grade(cli->lab, &req, &g, &err) < 0) {
        status = lab_cli_error(_("calibrate %s: %s"), ex->id, err.msg);
    } else if (!g.has_report || line->source == LAB_LINE_NONE) {
        status = lab_cli_error(_("calibrate %s: the reference was not timed: %s %s"), ex->id,
                               lab_verdict_describe(g.result.verdict)->name, g.result.message);
    } else {
        if (line->source == LAB_LINE_MATCH_REFERENCE)
            snprintf(here, sizeof(here), _("match %.0f%%"), 100 * line->min_fraction);
        else
            snprintf(here, sizeof(here), "%.2fx", line->min_speedup);
        printf("%-32s %8.2fx %10.2fx %13s  %s\n", ex->id, line->reference_speedup,
               line->manifest_speedup, here,
               line->source == LAB_LINE_MATCH_REFERENCE ? _("does not show")
               : line->manifest_speedup > 1             ? _("shows")
                                                        : _("not slower"));
    }
    lab_grading_release(&g);
    return status;
}

static int
calibrate_run(lab_cli *cli, const lab_cli_args *args)
{
    const lab_catalog *cat = lab_catalog_of(cli->lab);
    const lab_device *dev;
    char why[512];
    lab_err err = LAB_ERR_INIT;
    bool all = args->npos == 0 || lab_cli_args_has(args, "all");
    int status = LAB_EXIT_OK;

    for (size_t i = 0; i < args->npos; i++)
        if (!lab_cli_exercise(cli, lab_cli_args_pos(args, i)))
            return LAB_EXIT_ERROR;
    if (lab_device_probe(cli->lab, &dev, &err) < 0)
        return lab_cli_error(_("calibrate: %s"), err.msg);
    if (!dev->present)
        return lab_cli_error(_("calibrate needs a GPU: %s"),
                             lab_device_reason(dev, why, sizeof(why)));
    printf(_("the speed lines on %s, as every grading there derives them from its own run\n"),
           dev->name);
    printf("%-32s %9s %11s %13s  %s\n", _("exercise"), _("reference"), _("manifest"), _("this GPU"),
           _("lesson"));
    for (size_t i = 0; i < lab_catalog_exercise_count(cat); i++) {
        const lab_exercise *ex = lab_catalog_exercise(cat, i);
        bool want = all;
        for (size_t j = 0; j < args->npos && !want; j++)
            want = !strcmp(lab_cli_args_pos(args, j), ex->id);
        if (want && (all ? ex->ntiming_sizes && !ex->choose_block : true) &&
            calibrate_one(cli, ex) != LAB_EXIT_OK)
            status = LAB_EXIT_ERROR;
    }
    return status;
}

static const lab_cli_param args[] = {
    LAB_CLI_ARG("EXERCISE", LAB_CLI_EXERCISE, LAB_CLI_ANY, "whose reference to time (none: all)"),
    LAB_CLI_END,
};
static const lab_cli_param opts[] = {
    LAB_CLI_OPT("all", "every timed exercise of the catalog"),
    LAB_CLI_END,
};

const lab_cmd lab_cmd_calibrate = {
    .name = "calibrate",
    .help = N_("time each reference on this GPU and show the speed line each step gets here"),
    .args = args,
    .opts = opts,
    .group = LAB_CLI_TEACH,
    .run = calibrate_run,
};
