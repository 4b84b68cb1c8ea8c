/*
 * cmd-predict.c - `cudalab predict CHAPTER [QUESTION ANSWER] [--json]`: the
 * chapter's "predict before you run" questions (lab/catalog/questions.h); with an
 * answer, whether it held and why.  Questions whose answer is "measured" are
 * decided by the run they name (`cudalab demo CHAPTER` judges the ones its
 * demo measures).  Every answer goes to the store, as the menu's do, and
 * counts in the chapter's score.
 */
#include "lab/cli/cli.h"
#include "lab/instruments/predict.h"
#include "lab/catalog/questions.h"

#include <cJSON.h>
#include <string.h>
#include <time.h>

/* p: the learner's newest answer, or NULL */
static void
print_question(lab_cli *cli, const lab_question *q, const lab_prediction *p)
{
    printf("[%s] %s\n", q->id, lab_question_prompt(q));
    if (q->kind == LAB_QUESTION_CHOICE)
        for (size_t i = 0; i < q->nchoices; i++)
            printf("      - %s\n", lab_question_choice(q, i));
    else
        printf(_("      (a number)\n"));
    if (!strcmp(q->answer, "measured"))
        printf(_("      answered by: cudalab %s\n"), q->measure);
    if (!p)
        return;
    printf(_("      you said: %s  -> %s%s%s\n"), lab_question_answer_text(q, p->answer),
           lab_cli_sgr(cli, p->held == 1   ? "1;32"
                            : p->held == 0 ? "1;31"
                                           : "33"),
           lab_prediction_state(p), lab_cli_reset(cli));
    if (p->measured && *p->measured)
        printf("      %s\n", p->measured);
}

/* The learner's newest answer to q into *p: 1, or 0 when none (or the store cannot say). */
static int
find_answer(lab_cli *cli, const char *chapter, const lab_question *q, lab_prediction *p)
{
    lab_err err = LAB_ERR_INIT;
    lab_store *st;

    if (lab_store_of(cli->lab, &st, &err) < 0)
        return 0;
    return lab_store_prediction(st, chapter, q->id, p, &err) == 1;
}

static void
print_json(lab_cli *cli, const char *chapter, const lab_questions *qs)
{
    cJSON *o = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(o, "questions");

    cJSON_AddNumberToObject(o, "version", qs->version);
    for (size_t i = 0; i < qs->n; i++) {
        const lab_question *q = &qs->v[i];
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "id", q->id);
        cJSON_AddStringToObject(j, "kind", q->kind == LAB_QUESTION_CHOICE ? "choice" : "number");
        cJSON_AddStringToObject(j, "prompt", q->prompt);
        cJSON_AddItemToObject(
            j, "choices",
            cJSON_CreateStringArray((const char *const *)q->choices, (int)q->nchoices));
        cJSON_AddStringToObject(j, "measure", q->measure ? q->measure : "");
        cJSON_AddStringToObject(j, "exercise", q->exercise ? q->exercise : "");
        lab_prediction p;
        if (find_answer(cli, chapter, q, &p)) {
            cJSON_AddStringToObject(j, "answer", p.answer);
            if (p.held >= 0)
                cJSON_AddBoolToObject(j, "held", p.held);
            else
                cJSON_AddNullToObject(j, "held");
            cJSON_AddStringToObject(j, "measured", p.measured ? p.measured : "");
            /* decided (or not) on times the performance model gave, not a GPU's */
            cJSON_AddBoolToObject(j, "modelled", lab_prediction_is_modelled(&p));
        }
        cJSON_AddItemToArray(arr, j);
    }
    lab_cli_print_json(o);
}

static int
predict_run(lab_cli *cli, const lab_cli_args *args)
{
    const char *pos[3] = { lab_cli_args_pos(args, 0), lab_cli_args_pos(args, 1),
                           lab_cli_args_pos(args, 2) };
    lab_questions qs = LAB_QUESTIONS_INIT;
    lab_err err = LAB_ERR_INIT;
    const lab_question *q;
    lab_store *st;
    char measured[300];
    int status = LAB_EXIT_OK, held;

    cli->json = lab_cli_args_has(args, "json");
    if (args->npos == 2)
        return lab_cli_usage_error(args->cmd, _("the question needs an ANSWER"));
    if (lab_predict_questions(cli->lab, pos[0], &qs, &err) < 0) {
        status = lab_cli_error(
            "%s", err.code == LAB_ENOENT ? _("that chapter has no prediction questions") : err.msg);
        goto out;
    }
    if (args->npos == 1) {
        if (cli->json) {
            print_json(cli, pos[0], &qs);
        } else {
            printf(_("Predict before you run (%s): answer with `cudalab predict %s QUESTION "
                     "ANSWER`\n\n"),
                   pos[0], pos[0]);
            for (size_t i = 0; i < qs.n; i++) {
                lab_prediction p;
                print_question(cli, &qs.v[i], find_answer(cli, pos[0], &qs.v[i], &p) ? &p : NULL);
            }
        }
        goto out;
    }
    if (!(q = lab_questions_find(&qs, pos[1]))) {
        status = lab_cli_error(_("predict: %s has no question '%s'"), pos[0], pos[1]);
        goto out;
    }
    if (lab_question_check_answer(q, pos[2], &err) < 0) {
        status = lab_cli_error(_("predict: %s"), err.msg);
        goto out;
    }
    if (q->kind == LAB_QUESTION_CHOICE) /* kept in English: the store's answers are */
        pos[2] = q->choices[lab_question_choice_index(q, pos[2])];
    lab_prediction old;
    if (find_answer(cli, pos[0], q, &old) && lab_prediction_is_final(q, pos[0], &old)) {
        status = lab_cli_error(_("predict: '%s' is answered already (you said %s: %s) and its "
                                 "explanation was shown: the first answer stands"),
                               q->id, lab_question_answer_text(q, old.answer),
                               lab_prediction_state(&old));
        goto out;
    }
    held = lab_question_judge(q, pos[2], &err);
    snprintf(measured, sizeof(measured), _("the answer is %s"),
             lab_question_answer_text(q, q->answer));
    lab_prediction p = { .chapter = pos[0],
                         .question = q->id,
                         .answer = pos[2],
                         .time = (int64_t)time(NULL),
                         .held = held >= 0 ? held : -1,
                         .measured = held >= 0 ? measured : NULL };
    if (lab_store_of(cli->lab, &st, &err) < 0 || lab_store_add_prediction(st, &p, &err) < 0) {
        status = lab_cli_error(_("predict: %s"), err.msg);
        goto out;
    }
    if (held == LAB_ENOSYS && lab_question_before_demo(q, pos[0])) {
        /* the demo judges it and explains: not given away before the run */
        printf(_("Your prediction: %s (saved). Now run `cudalab %s`: it measures the answer and "
                 "says whether your prediction held.\n"),
               lab_question_answer_text(q, pos[2]), q->measure);
    } else if (held == LAB_ENOSYS) {
        printf(_("Your prediction: %s. Now run `cudalab %s`: the measurement answers it.\n\n%s\n"),
               lab_question_answer_text(q, pos[2]), q->measure, lab_question_explain(q));
    } else if (held < 0) {
        status = lab_cli_error(_("predict: %s"), err.msg);
    } else {
        printf(_("%s%s%s: the answer is %s.\n\n%s\n"), lab_cli_sgr(cli, held ? "1;32" : "1;31"),
               held ? _("Your prediction held") : _("Not this time"), lab_cli_reset(cli),
               lab_question_answer_text(q, q->answer), lab_question_explain(q));
        status = held ? LAB_EXIT_OK : LAB_EXIT_VERDICT;
    }
out:
    lab_questions_release(&qs);
    return status;
}

static const lab_cli_param args[] = {
    LAB_CLI_ARG("CHAPTER", LAB_CLI_CHAPTER, LAB_CLI_REQUIRED, "whose questions to list or answer"),
    LAB_CLI_ARG("QUESTION", LAB_CLI_STRING, LAB_CLI_OPTIONAL, "the question's id, as listed"),
    LAB_CLI_ARG("ANSWER", LAB_CLI_STRING, LAB_CLI_OPTIONAL,
                "your prediction: a choice, or a number (a negative one too)"),
    LAB_CLI_END,
};
static const lab_cli_param opts[] = {
    LAB_CLI_OPT("json", "the chapter's questions as JSON"),
    LAB_CLI_END,
};

const lab_cmd lab_cmd_predict = {
    .name = "predict",
    .help = N_("predict before you run: a chapter's questions, and whether your answer held"),
    .args = args,
    .opts = opts,
    .run = predict_run,
};
