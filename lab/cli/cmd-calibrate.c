/*
 * cmd-calibrate.c - `cudalab calibrate [EXERCISE... | --all]`: grade each
 * reference solution on the GPU in use and store this GPU's thresholds
 * (lab/grade/calib.h), keyed by device name and clocks.  Needs a GPU.
 */
#include "lab/cli/cli.h"
#include "lab/grade/calib.h"

#include <string.h>
#include <time.h>

static int
calibrate_one(lab_cli *cli, lab_calib *c, const lab_exercise *ex)
{
    lab_grade_request req = { .ex = ex, .file = ex->solution };
    lab_err err = LAB_ERR_INIT;
    lab_calib_entry e = { 0 };
    lab_grading g;
    int status = LAB_EXIT_OK;

    lab_grading_init(&g);
    if (lab_grade(cli->lab, &req, &g, &err) < 0) {
        status = lab_cli_error(_("calibrate %s: %s"), ex->id, err.msg);
    } else if (!g.has_report || g.result.reference_speedup <= 0) {
        status = lab_cli_error(_("calibrate %s: the reference was not timed: %s %s"), ex->id,
                               lab_verdict_describe(g.result.verdict)->name, g.result.message);
    } else {
        lab_calib_key k = { g.report.device, (long)g.report.sm_clock_khz,
                            (long)g.report.mem_clock_khz };
        e.reference_speedup = g.result.reference_speedup;
        e.min_speedup = lab_calib_threshold(ex->min_speedup, e.reference_speedup);
        e.measured_at = (long long)time(NULL);
        if (lab_calib_put(c, &k, ex->id, &e, &err) < 0)
            status = lab_cli_error(_("calibrate %s: %s"), ex->id, err.msg);
        else
            printf("%-32s %8.2fx %10.2fx %12.2fx\n", ex->id, e.reference_speedup, ex->min_speedup,
                   e.min_speedup);
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
    lab_buf path = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    lab_calib *c = NULL;
    lab_store *st;
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
    /* the store first: it makes the database and its folder */
    if (lab_store_of(cli->lab, &st, &err) < 0 || lab_store_default_path(&path, &err) < 0 ||
        lab_calib_open(path.buf, &c, &err) < 0) {
        lab_buf_release(&path);
        return lab_cli_error(_("calibrate: %s"), err.msg);
    }
    printf(_("calibrating on %s\n%-32s %9s %11s %13s\n"), dev->name, "exercise", "reference",
           "manifest", "this GPU");
    for (size_t i = 0; i < lab_catalog_exercise_count(cat); i++) {
        const lab_exercise *ex = lab_catalog_exercise(cat, i);
        bool want = all;
        for (size_t j = 0; j < args->npos && !want; j++)
            want = !strcmp(lab_cli_args_pos(args, j), ex->id);
        if (want && calibrate_one(cli, c, ex) != LAB_EXIT_OK)
            status = LAB_EXIT_ERROR;
    }
    lab_calib_close(c);
    lab_buf_release(&path);
    return status;
}

static const lab_cli_param args[] = {
    LAB_CLI_ARG("EXERCISE", LAB_CLI_EXERCISE, LAB_CLI_ANY, "whose reference to time (none: all)"),
    LAB_CLI_END,
};
static const lab_cli_param opts[] = {
    LAB_CLI_OPT("all", "every exercise of the catalog"),
    LAB_CLI_END,
};

const lab_cmd lab_cmd_calibrate = {
    .name = "calibrate",
    .help = N_("time the reference ladder on this GPU and store its speed thresholds"),
    .args = args,
    .opts = opts,
    .group = LAB_CLI_TEACH,
    .run = calibrate_run,
};
