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

/* The performance model's times beside a grading on the simulator (lab/grade/modelled.h):
 * per role its modelled ns, what bounds it, each bound's ns and the counts at the timed size. */
static void
add_model(cJSON *o, const lab_grading *g)
{
    const lab_modelled *m = &g->model;
    cJSON *mo, *roles;

    if (!g->has_model) {
        if (g->model_skipped[0])
            cJSON_AddStringToObject(o, "model_skipped", g->model_skipped);
        return;
    }
    mo = cJSON_AddObjectToObject(o, "model");
    cJSON_AddStringToObject(mo, "gpu", m->gpu.name);
    cJSON_AddNumberToObject(mo, "median_abs_error", m->gpu.median_abs_error);
    cJSON_AddNumberToObject(mo, "simulated_size", (double)m->simulated);
    cJSON_AddNumberToObject(mo, "timed_size", (double)m->timed);
    cJSON_AddNumberToObject(mo, "work", m->work);
    roles = cJSON_AddObjectToObject(mo, "roles");
    for (int r = 0; r < LAB_MODELLED_ROLE_COUNT; r++) {
        cJSON *ro, *bounds, *counts;
        if (!m->has[r])
            continue;
        ro = cJSON_AddObjectToObject(roles, lab_modelled_role_names[r]);
        cJSON_AddNumberToObject(ro, "ns", m->ns[r]);
        cJSON_AddStringToObject(ro, "bound", lab_model_bound_names[m->why[r].top]);
        bounds = cJSON_AddObjectToObject(ro, "bounds_ns");
        for (int b = 0; b < LAB_MODEL_BOUND_COUNT; b++)
            cJSON_AddNumberToObject(bounds, lab_model_bound_names[b], m->why[r].ns[b]);
        counts = cJSON_AddObjectToObject(ro, "counts");
        for (int c = 0; c < LAB_MODEL_C_COUNT; c++)
            cJSON_AddNumberToObject(counts, lab_model_count_names[c], m->counts[r].c[c]);
    }
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
    cJSON_AddBoolToObject(o, "calibrated", g->calibrated);
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
            fprintf(stderr, _("(run '%sstart %s' to create it)\n"), lab_cli_prog(cli), req.ex->id);
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
    fputs(_("After WRONG and RUNTIME_ERROR, the next: line says what to do about what was\n"
            "found (a race, a barrier, an index out of bounds, a value never written, ...).\n"
            "Without a GPU the PTX simulator grades correctness, and speed on modelled H100\n"
            "times (\"modelled for an H100, not measured\").\n"),
          fp);
}

static const lab_cli_param opts[] = {
    LAB_CLI_OPT("json", "the grading as JSON, the driver's report included"),
    LAB_CLI_OPT_NUMBER("seed", "N", 1, 0, "random inputs from seed N (default: a fresh seed)"),
    LAB_CLI_OPT("no-record", "do not record the attempt in your progress"),
    LAB_CLI_OPT("sim", "run on the PTX simulator, even with a GPU"),
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
