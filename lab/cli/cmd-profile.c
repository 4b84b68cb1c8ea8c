/*
 * cmd-profile.c - `cudalab profile EXERCISE [FILE] [--json]`: the chapter's
 * hardware counters for the student's kernel, the previous step and the
 * reference, from one run under Nsight Compute (lab/instruments/profile.h).
 */
#include "lab/cli/cli.h"
#include "lab/instruments/profile.h"

#include <cJSON.h>
#include <stdlib.h>
#include <string.h>

static const char *const role_titles[LAB_PROF_ROLES] = {
    "your kernel",
    "the previous step",
    "the reference solution",
};

static void
print_text(lab_cli *cli, const lab_exercise *ex, const lab_profiling *p)
{
    printf("%s%s%s on %s (ncu --clock-control none; ncu's times never grade)\n",
           lab_cli_sgr(cli, "1"), ex->id, lab_cli_reset(cli), p->device);
    for (int r = 0; r < LAB_PROF_ROLES; r++) {
        if (!p->has[r])
            continue;
        printf("\n%s%s%s (%s)\n", lab_cli_sgr(cli, "1"), p->kernel[r], lab_cli_reset(cli),
               role_titles[r]);
        printf("  %-29s %-68s %12s  %-16s %s\n", "notes (nvprof)", "ncu metric", "value",
               p->sim_reported ? "simulator (PTX)" : "simulator", "meaning");
        for (size_t m = 0; m < p->set.n; m++) {
            const lab_metric *mt = p->set.v[m];
            char v[32], s[32];
            lab_profile_format(v, sizeof(v), p->has_value[r][m], p->value[r][m], mt->unit);
            if (p->has_sim[r][m])
                lab_profile_format(s, sizeof(s), true, p->sim[r][m], mt->unit);
            else
                snprintf(s, sizeof(s), "not available");
            printf("  %-29s %-68s %12s  %-16s %s\n", mt->nvprof, mt->ncu, v, s, mt->meaning);
        }
    }
    if (p->sim_reported)
        printf("\nsimulator: the same kernels on the PTX simulator at n = %lu (PTX instructions, "
               "not SASS: counts differ from ncu's)\n",
               p->sim_size);
    else
        printf("\nsimulator: not available (%s)\n",
               p->sim_why[0] ? p->sim_why : "no PTX-level figures in the report");
}

/* Without ncu's table: the simulator's figures alone, when it gave any. */
static void
print_sim_only(const lab_profiling *p)
{
    for (int r = 0; r < LAB_PROF_ROLES; r++) {
        bool any = false;
        for (size_t m = 0; m < p->set.n; m++)
            any = any || p->has_sim[r][m];
        if (!any)
            continue;
        printf("%s (%s): the simulator's PTX-level figures at n = %lu\n", p->kernel[r],
               role_titles[r], p->sim_size);
        for (size_t m = 0; m < p->set.n; m++) {
            char s[32];
            if (!p->has_sim[r][m])
                continue;
            lab_profile_format(s, sizeof(s), true, p->sim[r][m], p->set.v[m]->unit);
            printf("  %-29s %12s  %s\n", p->set.v[m]->nvprof, s, p->set.v[m]->meaning);
        }
    }
}

static void
print_json(const lab_exercise *ex, const lab_profiling *p)
{
    cJSON *o = cJSON_CreateObject(), *kernels = cJSON_AddArrayToObject(o, "kernels");
    char *s;

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
    s = cJSON_Print(o);
    puts(s);
    free(s);
    cJSON_Delete(o);
}

static int
profile_run(lab_cli *cli, const lab_cli_args *args)
{
    const char *file;
    const lab_exercise *ex;
    lab_buf work = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    lab_profiling p;
    int status = LAB_EXIT_OK;

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
        else
            print_text(cli, ex, &p);
        break;
    case LAB_PROF_COMPILE_ERROR:
        fprintf(stderr, "%s", p.log.buf);
        status = lab_cli_error("%s", p.why);
        break;
    case LAB_PROF_NCU_FAILED:
        fprintf(stderr, "%s", p.output.buf);
        status = lab_cli_error("%s", p.why);
        break;
    default:
        print_sim_only(&p);
        status = lab_cli_error("%s", p.why);
        fprintf(stderr,
                "(`cudalab inspect %s` shows registers, occupancy and SASS without a "
                "GPU)\n",
                ex->id);
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
    .help = "run a kernel under Nsight Compute and explain its counters (needs a GPU)",
    .args = lab_cli_exercise_file_args,
    .opts = opts,
    .run = profile_run,
};
