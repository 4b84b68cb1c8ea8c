/*
 * cmd-grade.c - `cudalab grade EXERCISE [FILE] [--json] [--seed N] [--no-record] [--sim]
 * [--no-sim-check]`:
 * compile, run, verdict and the timing table (laid out by lab/report/grading.h).
 */
#include "lab/cli/cli.h"
#include "lab/report/grading.h"

#include <cJSON.h>
#include <stdlib.h>
#include <string.h>

static void
on_stage(lab_stage s, const char *what, void *arg)
{
    lab_cli *cli = arg;

    if (cli->tty_err && !cli->json)
        fprintf(stderr, "\r\033[K%s %s ...", lab_stage_name(s), what);
}

static void
clear_progress(const lab_cli *cli)
{
    if (cli->tty_err && !cli->json)
        fprintf(stderr, "\r\033[K");
}

/* The performance model's times beside a grading on the simulator, or why there are none. */
static void
add_model(cJSON *o, const lab_grading *g)
{
    if (g->has_model) {
        lab_cli_model_json(o, &g->model);
        return;
    }
    if (g->model_skipped[0])
        cJSON_AddStringToObject(o, "model_skipped", g->model_skipped);
    if (g->model_needs)
        cJSON_AddNumberToObject(o, "model_needs_size", (double)g->model_needs);
}

/* The line the speeds were held to and where it came from (lab/grade/speedline.h), with the
 * model's error band on modelled times; absent where nothing was held to a line. */
static void
add_speed_line(cJSON *o, const lab_grade_result *res, bool modelled)
{
    const lab_speed_line *l = &res->line;
    cJSON *sl;

    if (l->source == LAB_LINE_NONE)
        return;
    sl = cJSON_AddObjectToObject(o, "speed_line");
    cJSON_AddStringToObject(sl, "source", lab_line_source_name(l->source));
    cJSON_AddNumberToObject(sl, "min_speedup", l->min_speedup);
    cJSON_AddNumberToObject(sl, "min_fraction_of_reference", l->min_fraction);
    cJSON_AddNumberToObject(sl, "manifest_min_speedup", l->manifest_speedup);
    cJSON_AddNumberToObject(sl, "manifest_min_fraction_of_reference", l->manifest_fraction);
    cJSON_AddNumberToObject(sl, "reference_speedup", l->reference_speedup);
    cJSON_AddNumberToObject(sl, "noise", l->noise);
    cJSON_AddBoolToObject(sl, "lesson_shows", l->source != LAB_LINE_MATCH_REFERENCE);
    if (modelled) /* 0 where the student's counts are the reference's or the baseline's */
        cJSON_AddNumberToObject(sl, "model_band", res->model_band);
}

static void
print_json(const lab_exercise *ex, const char *file, const lab_grading *g)
{
    cJSON *o = cJSON_CreateObject(), *report;

    cJSON_AddStringToObject(o, "exercise", ex->id);
    cJSON_AddStringToObject(o, "file", file);
    cJSON_AddStringToObject(o, "file_hash", g->file_hash);
    cJSON_AddStringToObject(o, "verdict", lab_verdict_describe(g->result.verdict)->name);
    cJSON_AddStringToObject(o, "message", g->result.message);
    cJSON_AddStringToObject(o, "advice",
                            g->result.advice ? g->result.advice
                                             : lab_verdict_describe(g->result.verdict)->advice);
    cJSON_AddNumberToObject(o, "points", g->result.points);
    cJSON_AddNumberToObject(o, "max_points", ex->points);
    cJSON_AddNumberToObject(o, "speedup", g->result.speedup);
    cJSON_AddNumberToObject(o, "reference_speedup", g->result.reference_speedup);
    cJSON_AddNumberToObject(o, "fraction_of_reference", g->result.fraction);
    add_speed_line(o, &g->result, g->has_model);
    cJSON_AddNumberToObject(o, "median_ns", g->result.median_ns);
    cJSON_AddStringToObject(o, "arch", g->arch);
    cJSON_AddNumberToObject(o, "seed", (double)g->seed);
    cJSON_AddStringToObject(o, "device", g->device.present ? g->device.name : "");
    cJSON_AddStringToObject(o, "backend", g->backend);
    if (g->sim_max_size)
        cJSON_AddNumberToObject(o, "sim_max_size", (double)g->sim_max_size);
    if (g->sim_checked || g->sim_skipped[0]) {
        cJSON *check = cJSON_AddObjectToObject(o, "sim_check");
        cJSON_AddBoolToObject(check, "ran", g->sim_checked);
        cJSON_AddStringToObject(check, "skipped", g->sim_skipped);
    }
    add_model(o, g);
    cJSON_AddStringToObject(o, "compiler_log", g->compiler_log.buf);
    report = g->report_json.len ? cJSON_Parse(g->report_json.buf) : NULL;
    cJSON_AddItemToObject(o, "report", report ? report : cJSON_CreateNull());
    lab_cli_print_json(o);
}

/* The default file is not here: start makes it, unless the exercise was graded before, from the
 * work/ folder of another place (the work folder is wherever the lab runs), where it still is. */
static void
say_where_work_is(lab_cli *cli, const lab_exercise *ex)
{
    lab_err err = LAB_ERR_INIT;
    lab_progress pr = { 0 };
    lab_store *st;

    if (lab_store_of(cli->lab, &st, &err) == 0 && lab_store_progress(st, ex->id, &pr, &err) == 0 &&
        pr.attempts > 0)
        fprintf(stderr,
                ngettext("(your progress has %d attempt at %s, graded from a work/ folder "
                         "elsewhere: run the lab in the folder that holds it, or name the file; "
                         "'%sstart %s' makes a new copy of the starter here)\n",
                         "(your progress has %d attempts at %s, graded from a work/ folder "
                         "elsewhere: run the lab in the folder that holds it, or name the file; "
                         "'%sstart %s' makes a new copy of the starter here)\n",
                         (unsigned long)pr.attempts),
                pr.attempts, ex->id, lab_cli_prog(cli), ex->id);
    else
        fprintf(stderr, _("(run '%sstart %s' to create it)\n"), lab_cli_prog(cli), ex->id);
}

static int
grade_run(lab_cli *cli, const lab_cli_args *args)
{
    lab_grade_request req = { 0 };
    lab_buf work = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    lab_grading g;
    const char *file;
    int status, rc, lrc;

    cli->json = lab_cli_args_has(args, "json");
    req.record = !lab_cli_args_has(args, "no-record");
    req.backend = lab_cli_args_has(args, "sim") ? "sim" : NULL;
    req.no_sim_check = lab_cli_args_has(args, "no-sim-check");
    req.seed = lab_cli_args_number(args, "seed", 0);
    req.model_gpu = lab_cli_args_value(args, "gpu");
    if (!(req.ex = lab_cli_exercise_file(cli, args, &work, &file)))
        return LAB_EXIT_ERROR;
    req.file = file;
    req.on_stage = on_stage;
    req.arg = cli;
    req.cancel = cli->cancel;
    lab_grading_init(&g);
    rc = lab_grade(cli->lab, &req, &g, &err);
    clear_progress(cli);
    if (rc < 0 && !g.judged) {
        status = lab_cli_error("%s", err.msg);
        if (err.code == LAB_ENOENT && !strcmp(file, work.buf))
            say_where_work_is(cli, req.ex);
        goto out;
    }
    status = lab_verdict_describe(g.result.verdict)->exit_status;
    if (cli->json)
        print_json(req.ex, file, &g);
    else if ((lrc = lab_grading_layout(&g, req.ex, file, lab_cli_width(), lab_cli_print_line,
                                       cli)) < 0)
        status = lab_cli_error("%s", lab_strerror(lrc));
    if (rc < 0) { /* graded, then not recorded: the verdict first, then why */
        status = lab_cli_error(_("the verdict above was not recorded: %s"), err.msg);
        fprintf(stderr, _("fix: %s\n"), _(LAB_STORE_FIX));
    }
out:
    lab_grading_release(&g);
    lab_buf_release(&work);
    return status;
}

/* `cudalab help grade`: every verdict with its exit status and advice, from the verdict table. */
static void
grade_more_help(FILE *fp)
{
    fprintf(fp, "\n%s\n", _("verdicts (exit status, what to do):"));
    for (int v = 0; v < LAB_VERDICT_COUNT; v++) {
        const lab_verdict_info *vi = lab_verdict_describe((lab_verdict)v);
        fprintf(fp, "  %-15s %d  %s\n", vi->name, vi->exit_status, _(vi->advice));
    }
    fprintf(fp,
            _("After WRONG and RUNTIME_ERROR, the next: line says what to do about what was\n"
              "found (a race, a barrier, an index out of bounds, a value never written, ...).\n"
              "Without a GPU the PTX simulator grades correctness, and speed on modelled H100\n"
              "times (\"modelled for an H100, not measured\"; --gpu h200 models an H200).\n"
              "A simulator capped below %lu elements (CUDALAB_SIM_MAX_SIZE) gives no speed\n"
              "verdict: NO_GPU.\n"),
            LAB_MODELLED_ELEMENTS);
}

static const lab_cli_param opts[] = {
    LAB_CLI_OPT("json", "the grading as JSON, the driver's report included"),
    LAB_CLI_OPT_NUMBER("seed", "N", 1, 0, "random inputs from seed N (default: a fresh seed)"),
    LAB_CLI_OPT("no-record", "do not record the attempt in your progress"),
    LAB_CLI_OPT("sim", "run on the PTX simulator, even with a GPU"),
    LAB_CLI_OPT_VALUE("gpu", LAB_CLI_STRING, "NAME",
                      "on the simulator, model the speed of GPU NAME (kernels/gpus/NAME.ini: h100, "
                      "the default, h200; a100, l4, rtx4090 predicted, not measured)"),
    LAB_CLI_OPT("no-sim-check", "on a GPU, do not also run the kernel on the simulator to look "
                                "for races, divergent barriers, bad warp masks and accesses out "
                                "of bounds"),
    LAB_CLI_END,
};

const lab_cmd lab_cmd_grade = {
    .name = "grade",
    .help = N_("compile FILE, run it and grade it: correctness, then speed"),
    .args = lab_cli_exercise_file_args,
    .opts = opts,
    .run = grade_run,
    .more_help = grade_more_help,
};
