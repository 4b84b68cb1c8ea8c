/*
 * cmd-demo.c - `cudalab demo CHAPTER [--json] [--save FILE] [--gpu NAME]`: run a chapter's
 * demo on the GPU and print what it measured (--save also keeps the report), laid out by
 * lab/report/demo.h (the menu's demo view uses the same layout); here its styles become
 * terminal colours (print.c), the heat map's shades background colours.  Without a GPU the demo
 * runs on the simulator and its times are modelled for an H100 (or GPU NAME), labelled so.
 * Predictions given with `cudalab predict` that the demo measures are then judged, stored and
 * shown, as in the menu.
 */
#include "lab/cli/cli.h"
#include "lab/instruments/demo.h"
#include "lab/report/demo.h"
#include "lab/instruments/predict.h"

#include <stdlib.h>
#include <string.h>

static int
print_report(lab_cli *cli, const lab_demo_report *r)
{
    const lab_demo_layout_opts opts = { .shade_chars = !cli->color };
    int rc = lab_demo_layout(r, &opts, lab_cli_print_line, cli);

    return rc < 0 ? lab_cli_error("%s", lab_strerror(rc)) : LAB_EXIT_OK;
}

/* Judges the chapter's undecided predictions by the report and, unless quiet, prints every
 * answered question asked before the demo with its verdict. */
static int
judge_predictions(lab_cli *cli, const char *chapter, const lab_demo_report *r, bool quiet)
{
    lab_questions qs = LAB_QUESTIONS_INIT;
    lab_err err = LAB_ERR_INIT;
    lab_store *st;
    bool any = false;
    int rc;

    if ((rc = lab_predict_questions(cli->lab, chapter, &qs, &err)) < 0)
        return rc == LAB_ENOENT ? 0 : lab_cli_error("%s", err.msg);
    if (lab_store_of(cli->lab, &st, &err) < 0 ||
        lab_predict_judge_pending(st, &qs, chapter, r, &err) < 0) {
        rc = lab_cli_error("%s", err.msg);
        goto out;
    }
    for (size_t i = 0; i < qs.n && !quiet; i++) {
        const lab_question *q = &qs.v[i];
        lab_prediction p;
        if (!lab_question_before_demo(q, chapter) ||
            lab_store_prediction(st, chapter, q->id, &p, &err) != 1)
            continue;
        if (!any)
            printf(_("\n%sYour predictions%s\n"), lab_cli_sgr(cli, "1"), lab_cli_reset(cli));
        any = true;
        printf(_("  [%s] you said: %s  -> %s%s%s\n"), q->id, p.answer,
               lab_cli_sgr(cli, p.held == 1   ? "1;32"
                                : p.held == 0 ? "1;31"
                                              : "33"),
               lab_prediction_state(&p), lab_cli_reset(cli));
        /* a question with an answer of its own was not measured; a modelled one says so */
        if (*p.measured)
            printf(strcmp(q->answer, "measured") || lab_prediction_is_modelled(&p)
                       ? "      %s\n"
                       : _("      measured: %s\n"),
                   p.measured);
        /* as the menu does: once a run has looked at it, the answer is final (predict.h) */
        if (lab_prediction_is_final(q, chapter, &p))
            printf("      %s\n", lab_question_explain(q));
    }
out:
    lab_questions_release(&qs);
    return rc;
}

static int
demo_run(lab_cli *cli, const lab_cli_args *args)
{
    const char *chapter = lab_cli_args_pos(args, 0), *save = lab_cli_args_value(args, "save");
    lab_err err = LAB_ERR_INIT;
    lab_demo_run r;
    int status;

    cli->json = lab_cli_args_has(args, "json");
    lab_demo_run_init(&r);
    r.model_gpu = lab_cli_args_value(args, "gpu");
    if (lab_demo_run_chapter(cli->lab, chapter, NULL, &r, &err) < 0) {
        status = lab_cli_error("%s", err.msg);
        if (r.errout.len)
            fprintf(stderr, "%s", r.errout.buf);
        goto out;
    }
    if (r.steps.len)
        fprintf(stderr, "%s", r.steps.buf);
    if (r.model_gpu && !lab_demo_is_modelled(&r.report)) /* on a GPU, or a demo of no times */
        fprintf(stderr, "%s\n",
                _("note: --gpu names the GPU whose times the simulator models; this demo "
                  "modelled none"));
    if (save && lab_write_file(save, r.json.buf, r.json.len, &err) < 0) {
        status = lab_cli_error("%s", err.msg);
        goto out;
    }
    if (cli->json)
        printf("%s\n", r.json.buf);
    else if (print_report(cli, &r.report)) {
        status = LAB_EXIT_ERROR;
        goto out;
    }
    status = strcmp(r.report.status, "ok") ? LAB_EXIT_VERDICT : LAB_EXIT_OK;
    if (judge_predictions(cli, chapter, r.has_report ? &r.report : NULL, cli->json) < 0)
        status = LAB_EXIT_ERROR;
out:
    lab_demo_run_release(&r);
    return status;
}

/* `cudalab help demo`: what the demos do without a GPU. */
static void
demo_more_help(FILE *fp)
{
    fprintf(fp, "\n%s",
            _("Without a GPU (or with CUDALAB_BACKEND=sim) the demo runs on the PTX simulator:\n"
              "its outputs are the simulator's, and its times are modelled for an H100 (--gpu\n"
              "h200 models an H200) from the simulator's exact counts, labelled \"modelled for\n"
              "an H100, not measured\". Sizes the simulator cannot afford are counted at 2^16\n"
              "and 2^18 elements and scaled, as grading does. A prediction decided on modelled\n"
              "times says so; where the model cannot tell the choices apart (closer than twice\n"
              "its median error) it stays for a GPU to decide.\n"));
}

static const lab_cli_param args[] = {
    LAB_CLI_ARG("CHAPTER", LAB_CLI_CHAPTER, LAB_CLI_REQUIRED, "whose demo to run, e.g. occupancy"),
    LAB_CLI_END,
};
static const lab_cli_param opts[] = {
    LAB_CLI_OPT("json", "the demo's report as JSON"),
    LAB_CLI_OPT_VALUE("save", LAB_CLI_FILE, "FILE", "also write the demo's report (JSON) to FILE"),
    LAB_CLI_OPT_VALUE("gpu", LAB_CLI_STRING, "NAME",
                      "on the simulator, model the times of GPU NAME (kernels/gpus/NAME.ini: h100, "
                      "the default, h200; a100, l4, rtx4090 predicted, not measured)"),
    LAB_CLI_END,
};

const lab_cmd lab_cmd_demo = {
    .name = "demo",
    .help = N_("run a chapter's demo: measured on the GPU, modelled on the simulator without one"),
    .args = args,
    .opts = opts,
    .run = demo_run,
    .more_help = demo_more_help,
};
