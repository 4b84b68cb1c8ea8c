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
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void
print_question(const lab_question *q)
{
    printf("[%s] %s\n", q->id, q->prompt);
    if (q->kind == LAB_QUESTION_CHOICE)
        for (size_t i = 0; i < q->nchoices; i++)
            printf("      - %s\n", q->choices[i]);
    else
        printf("      (a number)\n");
    if (!strcmp(q->answer, "measured"))
        printf("      answered by: cudalab %s\n", q->measure);
}

static void
print_json(const lab_questions *qs)
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
        cJSON_AddItemToArray(arr, j);
    }
    lab_cli_print_json(o);
}

static int
predict_run(lab_cli *cli, int argc, char **argv)
{
    const char *pos[3] = { NULL, NULL, NULL };
    size_t npos = 0;
    lab_questions qs = LAB_QUESTIONS_INIT;
    lab_err err = LAB_ERR_INIT;
    const lab_question *q;
    lab_store *st;
    char measured[300];
    int status = LAB_EXIT_OK, held;

    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--json"))
            cli->json = true;
        else if (argv[i][0] == '-' && argv[i][1] && npos < 2)
            return lab_cli_error("predict: unknown option '%s'", argv[i]);
        else if (npos < 3)
            pos[npos++] = argv[i];
        else
            return lab_cli_error("predict: unexpected argument '%s'", argv[i]);
    }
    if (npos != 1 && npos != 3)
        return lab_cli_error("usage: cudalab %s %s", lab_cmd_predict.name, lab_cmd_predict.args);
    if (lab_predict_questions(cli->lab, pos[0], &qs, &err) < 0) {
        status = lab_cli_error(
            "%s", err.code == LAB_ENOENT ? "that chapter has no prediction questions" : err.msg);
        goto out;
    }
    if (npos == 1) {
        if (cli->json) {
            print_json(&qs);
        } else {
            printf("Predict before you run (%s): answer with `cudalab predict %s QUESTION "
                   "ANSWER`\n\n",
                   pos[0], pos[0]);
            for (size_t i = 0; i < qs.n; i++)
                print_question(&qs.v[i]);
        }
        goto out;
    }
    if (!(q = lab_questions_find(&qs, pos[1]))) {
        status = lab_cli_error("predict: %s has no question '%s'", pos[0], pos[1]);
        goto out;
    }
    if (lab_question_check_answer(q, pos[2], &err) < 0) {
        status = lab_cli_error("predict: %s", err.msg);
        goto out;
    }
    held = lab_question_judge(q, pos[2], &err);
    snprintf(measured, sizeof(measured), "the answer is %s", q->answer);
    lab_prediction p = { .chapter = pos[0],
                         .question = q->id,
                         .answer = pos[2],
                         .time = (int64_t)time(NULL),
                         .held = held >= 0 ? held : -1,
                         .measured = held >= 0 ? measured : NULL };
    if (lab_store_of(cli->lab, &st, &err) < 0 || lab_store_add_prediction(st, &p, &err) < 0) {
        status = lab_cli_error("predict: %s", err.msg);
        goto out;
    }
    if (held == LAB_ENOSYS && lab_question_before_demo(q, pos[0])) {
        /* the demo judges it and explains: not given away before the run */
        printf("Your prediction: %s (saved). Now run `cudalab %s`: it measures the answer and "
               "says whether your prediction held.\n",
               pos[2], q->measure);
    } else if (held == LAB_ENOSYS) {
        printf("Your prediction: %s. Now run `cudalab %s`: the measurement answers it.\n\n%s\n",
               pos[2], q->measure, q->explain);
    } else if (held < 0) {
        status = lab_cli_error("predict: %s", err.msg);
    } else {
        printf("%s%s%s: the answer is %s.\n\n%s\n", lab_cli_sgr(cli, held ? "1;32" : "1;31"),
               held ? "Your prediction held" : "Not this time", lab_cli_reset(cli), q->answer,
               q->explain);
        status = held ? LAB_EXIT_OK : LAB_EXIT_VERDICT;
    }
out:
    lab_questions_release(&qs);
    return status;
}

const lab_cmd lab_cmd_predict = {
    .name = "predict",
    .args = "CHAPTER [QUESTION ANSWER] [--json]",
    .help = "predict before you run: a chapter's questions, and whether your answer held",
    .complete = { LAB_COMPLETE_NONE },
    .run = predict_run,
};
