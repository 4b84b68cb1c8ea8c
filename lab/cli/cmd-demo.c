/*
 * cmd-demo.c - `cudalab demo CHAPTER [--json] [--save FILE]`: run a chapter's
 * demo on the GPU and print what it measured (--save also keeps the report), laid out by
 * lab/report/demo.h (the menu's demo view uses the same layout); here its styles become
 * terminal colours (print.c), the heat map's shades background colours.  Predictions given with
 * `cudalab predict` that the demo measures are then judged, stored and shown, as in the menu.
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
        if (*p.measured) /* a question with an answer of its own was not measured */
            printf(strcmp(q->answer, "measured") ? "      %s\n" : _("      measured: %s\n"),
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
    if (lab_demo_run_chapter(cli->lab, chapter, NULL, &r, &err) < 0) {
        status = lab_cli_error("%s", err.msg);
        if (r.errout.len)
            fprintf(stderr, "%s", r.errout.buf);
        goto out;
    }
    if (r.steps.len)
        fprintf(stderr, "%s", r.steps.buf);
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

static const lab_cli_param args[] = {
    LAB_CLI_ARG("CHAPTER", LAB_CLI_CHAPTER, LAB_CLI_REQUIRED, "whose demo to run, e.g. occupancy"),
    LAB_CLI_END,
};
static const lab_cli_param opts[] = {
    LAB_CLI_OPT("json", "the demo's report as JSON"),
    LAB_CLI_OPT_VALUE("save", LAB_CLI_FILE, "FILE", "also write the demo's report (JSON) to FILE"),
    LAB_CLI_END,
};

const lab_cmd lab_cmd_demo = {
    .name = "demo",
    .help = N_("run a chapter's demo on the GPU and show what it measured"),
    .args = args,
    .opts = opts,
    .run = demo_run,
};
