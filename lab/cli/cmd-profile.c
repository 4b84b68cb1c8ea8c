/*
 * cmd-profile.c - `cudalab profile EXERCISE [FILE] [--json]`: the chapter's
 * hardware counters for the student's kernel, the previous step and the
 * reference, from one run under Nsight Compute (lab/instruments/profile.h), laid out
 * by lab/report/profiling.h.
 */
#include "lab/cli/cli.h"
#include "lab/instruments/profile.h"
#include "lab/report/profiling.h"

#include <cJSON.h>
#include <stdlib.h>
#include <string.h>

static void
print_json(const lab_exercise *ex, const lab_profiling *p)
{
    cJSON *o = cJSON_CreateObject(), *kernels = cJSON_AddArrayToObject(o, "kernels");

    cJSON_AddStringToObject(o, "exercise", ex->id);
    cJSON_AddStringToObject(o, "device", p->device);
    cJSON_AddItemToObject(
        o, "command",
        cJSON_CreateStringArray((const char *const *)p->command.v, (int)p->command.n));
    for (int r = 0; r < LAB_PROF_ROLES; r++) {
        cJSON *k, *rows;
        if (!p->has[r])
            continue;
        k = cJSON_CreateObject();
        cJSON_AddStringToObject(k, "role", lab_prof_role_names[r]);
        cJSON_AddStringToObject(k, "kernel", p->kernel[r]);
        rows = cJSON_AddArrayToObject(k, "metrics");
        for (size_t m = 0; m < p->set.n; m++) {
            cJSON *row = cJSON_CreateObject();
            cJSON_AddStringToObject(row, "key", p->set.v[m]->key);
            cJSON_AddStringToObject(row, "nvprof", p->set.v[m]->nvprof);
            cJSON_AddStringToObject(row, "ncu", p->set.v[m]->ncu);
            if (p->has_value[r][m])
                cJSON_AddNumberToObject(row, "value", p->value[r][m]);
            else
                cJSON_AddNullToObject(row, "value");
            if (p->has_sim[r][m])
                cJSON_AddNumberToObject(row, "simulator", p->sim[r][m]);
            else
                cJSON_AddNullToObject(row, "simulator");
            cJSON_AddStringToObject(row, "unit", p->set.v[m]->unit);
            cJSON_AddStringToObject(row, "meaning", p->set.v[m]->meaning);
            cJSON_AddItemToArray(rows, row);
        }
        cJSON_AddItemToArray(kernels, k);
    }
    lab_cli_print_json(o);
}

static int
profile_run(lab_cli *cli, const lab_cli_args *args)
{
    const char *file;
    const lab_exercise *ex;
    lab_buf work = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    lab_profiling p;
    int status = LAB_EXIT_OK, rc;

    cli->json = lab_cli_args_has(args, "json");
    if (!(ex = lab_cli_exercise_file(cli, args, &work, &file)))
        return LAB_EXIT_ERROR;
    lab_profiling_init(&p);
    if (lab_profile(cli->lab, ex, file, &p, &err) < 0) {
        status = lab_cli_error("%s", err.msg);
        goto out;
    }
    switch (p.status) {
    case LAB_PROF_OK:
        if (cli->json)
            print_json(ex, &p);
        else if ((rc = lab_profiling_layout(&p, ex, 0, lab_cli_print_line, cli)) < 0)
            status = lab_cli_error("%s", lab_strerror(rc));
        break;
    case LAB_PROF_COMPILE_ERROR:
        lab_cli_put_shown(stderr, p.log.buf, p.log.len);
        status = lab_cli_error("%s", p.why);
        break;
    case LAB_PROF_NCU_FAILED:
        lab_cli_put_shown(stderr, p.output.buf, p.output.len);
        status = lab_cli_error("%s", p.why);
        break;
    default: /* no counters (no ncu, no GPU): why, then the simulator's figures */
        status = lab_cli_error(_("no Nsight Compute counters: %s"), p.why);
        fprintf(stderr,
                _("(below: the simulator's figures; `%sinspect %s` shows registers, occupancy "
                  "and SASS)\n"),
                lab_cli_prog(cli), ex->id);
        fflush(stderr);
        lab_profiling_layout(&p, ex, 0, lab_cli_print_line, cli);
        break;
    }
out:
    lab_profiling_release(&p);
    lab_buf_release(&work);
    return status;
}

static const lab_cli_param opts[] = {
    LAB_CLI_OPT("json", "the counters of every kernel as JSON"),
    LAB_CLI_END,
};

const lab_cmd lab_cmd_profile = {
    .name = "profile",
    .help = N_("explain a kernel's counters: Nsight Compute's on a GPU, else the simulator's"),
    .args = lab_cli_exercise_file_args,
    .opts = opts,
    .run = profile_run,
};
