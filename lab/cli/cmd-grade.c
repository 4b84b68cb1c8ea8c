/*
 * cmd-grade.c - `cudalab grade EXERCISE [FILE] [--json] [--seed N] [--no-record]`:
 * compile, run, verdict and the timing table.
 */
#include "lab/cli/cli.h"

#include <cJSON.h>
#include <stdlib.h>
#include <string.h>

static const char *const stage_names[LAB_STAGE_COUNT] = {
    [LAB_STAGE_COMPILE] = "compiling",
    [LAB_STAGE_CHECK] = "checking",
    [LAB_STAGE_RUN] = "running on",
    [LAB_STAGE_RECORD] = "recording",
};

const char *
lab_cli_stage_name(lab_stage s)
{
    return stage_names[s];
}

static void
on_stage(lab_stage s, const char *what, void *arg)
{
    lab_cli *cli = arg;

    if (cli->tty_err && !cli->json)
        fprintf(stderr, "\r\033[K%s %s ...", stage_names[s], what);
}

static void
clear_progress(const lab_cli *cli)
{
    if (cli->tty_err && !cli->json)
        fprintf(stderr, "\r\033[K");
}

static void
format_time(double ns, char *buf, size_t size)
{
    if (ns >= 1e6)
        snprintf(buf, size, "%.2f ms", ns / 1e6);
    else
        snprintf(buf, size, "%.2f us", ns / 1e3);
}

static void
print_cases(FILE *fp, const lab_cli *cli, const lab_runreport *r)
{
    fprintf(fp, "  %-10s %-10s %s\n", "n", "student", "");
    for (size_t i = 0; i < r->ncases; i++) {
        const lab_case *c = &r->cases[i];
        if (strcmp(c->role, "student"))
            continue;
        fprintf(fp, "  %-10lu %s%-10s%s %s\n", c->size, lab_cli_sgr(cli, c->correct ? "32" : "31"),
                c->correct ? "ok" : "wrong", lab_cli_reset(cli), c->correct ? "" : c->detail);
    }
}

static void
print_timing(FILE *fp, const lab_grading *g)
{
    const lab_size_timing *t = lab_runreport_last_timing(&g->report);
    const lab_kernel_time *base = lab_runreport_time(&g->report, "baseline");

    if (!t)
        return;
    fprintf(fp,
            "\n  n = %lu (%.1f MiB)   copy bandwidth measured now: %.0f GB/s   peak %.0f GB/s\n",
            t->size, t->bytes / (1 << 20), t->copy_gbps, g->report.peak_gbps);
    fprintf(fp, "  %-10s %12s %8s %8s %8s %7s %7s %8s\n", "kernel", "median", "CI95", "samples",
            "GB/s", "% peak", "% copy", "speedup");
    for (size_t i = 0; i < t->nkernels; i++) {
        const lab_kernel_time *k = &t->kernels[i];
        char med[32];
        format_time(k->median_ns, med, sizeof(med));
        fprintf(fp, "  %-10s %12s %7.2f%% %8lu %8.0f %7.1f %7.1f %7.2fx%s\n", k->role, med,
                100 * k->ci_rel, k->samples, k->gbps, k->pct_peak, k->pct_copy,
                base && k->median_ns > 0 ? base->median_ns / k->median_ns : 0,
                k->cpu ? "  (CPU)" : "");
    }
    if (t->capped)
        fprintf(fp, "  (stopped at the time cap before the medians settled to +-0.25%%)\n");
}

/* A choice exercise's sweep: every shape's time, the fastest and the student's marked. */
static void
print_sweep(FILE *fp, const lab_cli *cli, const lab_runreport *r)
{
    const lab_sweep *s = &r->sweep;
    const lab_sweep_row *best = lab_grade_sweep_best(s);

    fprintf(fp, "\n  n = %lu (%.1f MiB moved per launch), every shape timed interleaved\n", s->size,
            s->bytes / (1 << 20));
    fprintf(fp, "  %-10s %12s %8s %8s %8s %10s %9s\n", "block", "median", "CI95", "samples", "GB/s",
            "occupancy", "vs best");
    for (size_t i = 0; i < s->nrows; i++) {
        const lab_sweep_row *w = &s->rows[i];
        bool mine = !strcmp(w->block, s->choice);
        char med[32], occ[16];
        if (!w->launched) {
            fprintf(fp, "  %-10s %s%s%s\n", w->block, mine ? "<- yours: " : "",
                    "cannot be launched: ", w->error);
            continue;
        }
        format_time(w->median_ns, med, sizeof(med));
        if (w->occupancy >= 0)
            snprintf(occ, sizeof(occ), "%.0f%%", 100 * w->occupancy);
        else
            snprintf(occ, sizeof(occ), "-");
        fprintf(fp, "  %s%-10s %12s %7.2f%% %8lu %8.0f %10s %8.3fx%s%s%s\n",
                mine ? lab_cli_sgr(cli, "1") : "", w->block, med, 100 * w->ci_rel, w->samples,
                w->gbps, occ, best ? w->median_ns / best->median_ns : 0,
                w == best ? "  fastest" : "", mine ? "  <- yours" : "",
                mine ? lab_cli_reset(cli) : "");
    }
    if (s->capped)
        fprintf(fp, "  (stopped at the time cap before the medians settled to +-0.25%%)\n");
}

void
lab_cli_print_grading(FILE *fp, const lab_cli *cli, const lab_exercise *ex, const char *file,
                      const lab_grading *g)
{
    const lab_verdict_info *vi = lab_verdict_describe(g->result.verdict);

    fprintf(fp, "%s%s%s  %s\n", lab_cli_sgr(cli, "1"), ex->id, lab_cli_reset(cli), file);
    if (!strcmp(g->backend, "sim"))
        fprintf(fp, "PTX simulator (%s%s), seed %.0f, block %u; sizes capped at %lu\n",
                g->device.present ? "forced" : "no GPU",
                g->device.present ? "" : ": correctness only",
                g->has_report ? g->report.seed : (double)g->seed, ex->block, g->sim_max_size);
    else if (g->device.present && ex->choose_block)
        fprintf(fp, "GPU %s (%s), seed %.0f, block chosen by the file\n", g->device.name, g->arch,
                g->has_report ? g->report.seed : (double)g->seed);
    else if (g->device.present)
        fprintf(fp, "GPU %s (%s), seed %.0f, block %u\n", g->device.name, g->arch,
                g->has_report ? g->report.seed : (double)g->seed, ex->block);
    if (g->compiler_log.len)
        fprintf(fp, "\n%s", g->compiler_log.buf);
    if (g->has_report && g->report.ncases) {
        fprintf(fp, "\n");
        print_cases(fp, cli, &g->report);
    }
    if (g->has_report)
        print_timing(fp, g);
    if (g->has_report && g->report.sweep.present)
        print_sweep(fp, cli, &g->report);
    fprintf(fp, "\n%s%s%s  %s   %d/%d points\n", lab_cli_sgr(cli, vi->color), vi->name,
            lab_cli_reset(cli), g->result.message, g->result.points, ex->points);
    if (g->result.verdict != LAB_VERDICT_PASS)
        fprintf(fp, "next: %s\n", vi->advice);
}

static void
print_json(const lab_exercise *ex, const char *file, const lab_grading *g)
{
    cJSON *o = cJSON_CreateObject(), *report;
    char *text;

    cJSON_AddStringToObject(o, "exercise", ex->id);
    cJSON_AddStringToObject(o, "file", file);
    cJSON_AddStringToObject(o, "file_hash", g->file_hash);
    cJSON_AddStringToObject(o, "verdict", lab_verdict_describe(g->result.verdict)->name);
    cJSON_AddStringToObject(o, "message", g->result.message);
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
    cJSON_AddStringToObject(o, "compiler_log", g->compiler_log.buf);
    report = g->report_json.len ? cJSON_Parse(g->report_json.buf) : NULL;
    cJSON_AddItemToObject(o, "report", report ? report : cJSON_CreateNull());
    text = cJSON_Print(o);
    if (text)
        puts(text);
    free(text);
    cJSON_Delete(o);
}

static int
grade_run(lab_cli *cli, const lab_cli_args *args)
{
    lab_grade_request req = { 0 };
    lab_buf work = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    lab_grading g;
    const char *file;
    int status;

    cli->json = lab_cli_args_has(args, "json");
    req.record = !lab_cli_args_has(args, "no-record");
    req.backend = lab_cli_args_has(args, "sim") ? "sim" : NULL;
    req.seed = lab_cli_args_number(args, "seed", 0);
    if (!(req.ex = lab_cli_exercise_file(cli, args, &work, &file)))
        return LAB_EXIT_ERROR;
    req.file = file;
    req.on_stage = on_stage;
    req.arg = cli;
    req.cancel = cli->cancel;
    lab_grading_init(&g);
    if (lab_grade(cli->lab, &req, &g, &err) < 0) {
        clear_progress(cli);
        status = lab_cli_error("%s", err.msg);
        if (err.code == LAB_ENOENT && !strcmp(file, work.buf))
            fprintf(stderr, "(run 'cudalab start %s' to create it)\n", req.ex->id);
        goto out;
    }
    clear_progress(cli);
    if (cli->json)
        print_json(req.ex, file, &g);
    else
        lab_cli_print_grading(stdout, cli, req.ex, file, &g);
    status = lab_verdict_describe(g.result.verdict)->exit_status;
out:
    lab_grading_release(&g);
    lab_buf_release(&work);
    return status;
}

static const lab_cli_param opts[] = {
    LAB_CLI_OPT("json", "the grading as JSON, the driver's report included"),
    LAB_CLI_OPT_NUMBER("seed", "N", 1, 0, "random inputs from seed N (default: a fresh seed)"),
    LAB_CLI_OPT("no-record", "do not record the attempt in your progress"),
    LAB_CLI_OPT("sim", "run on the PTX simulator, even with a GPU"),
    LAB_CLI_END,
};

const lab_cmd lab_cmd_grade = {
    .name = "grade",
    .help = "compile FILE, run it and grade it: correctness, then speed",
    .args = lab_cli_exercise_file_args,
    .opts = opts,
    .run = grade_run,
};
