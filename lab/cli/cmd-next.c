/*
 * cmd-next.c - `cudalab next [--json]`: the first exercise not yet passed, in course order,
 * and the command that goes on with it (start it, or grade the file already there).
 */
#include "lab/cli/cli.h"

#include <cJSON.h>
#include <unistd.h>

static int
next_run(lab_cli *cli, const lab_cli_args *args)
{
    const lab_exercise *ex;
    lab_buf work = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    lab_store *st;
    const char *prog = lab_cli_prog(cli);
    bool started = false;

    cli->json = lab_cli_args_has(args, "json");
    if (lab_store_of(cli->lab, &st, &err) < 0 ||
        lab_work_next(lab_catalog_of(cli->lab), st, NULL, &ex, &err) < 0)
        return lab_cli_error("%s", err.msg);
    if (ex) {
        lab_work_path(ex, &work);
        started = access(work.buf, F_OK) == 0;
    }
    if (cli->json) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToObject(o, "exercise", ex ? cJSON_CreateString(ex->id) : cJSON_CreateNull());
        cJSON_AddItemToObject(o, "file", ex ? cJSON_CreateString(work.buf) : cJSON_CreateNull());
        lab_cli_print_json(o);
    } else if (!ex) {
        printf(_("Every exercise is passed: well done.\n"));
    } else {
        printf(_("Next: %s%s%s  %s\n"), lab_cli_sgr(cli, "1"), ex->id, lab_cli_reset(cli),
               ex->local_title);
        if (started)
            printf(_("Your file: %s   read: %sshow %s   grade: %sgrade %s\n"), work.buf, prog,
                   ex->id, prog, ex->id);
        else
            printf(_("Begin with: %sstart %s   then: %sshow %s, %sgrade %s\n"), prog, ex->id, prog,
                   ex->id, prog, ex->id);
    }
    lab_buf_release(&work);
    return LAB_EXIT_OK;
}

static const lab_cli_param opts[] = {
    LAB_CLI_OPT("json", "the exercise (null when all are passed) and its file as JSON"),
    LAB_CLI_END,
};

const lab_cmd lab_cmd_next = {
    .name = "next",
    .help = N_("name the first exercise you have not passed, in course order"),
    .opts = opts,
    .run = next_run,
};
