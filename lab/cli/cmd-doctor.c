/*
 * cmd-doctor.c - `cudalab doctor [--json]`: every check of lab/instruments/doctor
 * with its fix.  Exit status: 0 the lab can grade on the GPU, 1 only on the
 * simulator, 2 not at all.
 */
#include "lab/cli/cli.h"
#include "lab/util/textwidth.h"
#include "lab/instruments/doctor.h"

#include <cJSON.h>
#include <stdlib.h>

static const struct {
    const char *word;
    const char *color;
} states[] = {
    [LAB_CHECK_OK] = { "ok", "32" },
    [LAB_CHECK_WARN] = { "warn", "33" },
    [LAB_CHECK_FAIL] = { "FAIL", "31" },
};

static const char *const outcomes[] = {
    [LAB_CAN_GPU] = N_("ready: the lab grades on the GPU (correctness and speed)"),
    [LAB_CAN_SIM] = N_("the lab grades on the simulator only: correctness, and speed on times "
                       "the performance model gives for an H100 (modelled, not measured)"),
    [LAB_CAN_NOTHING] = N_("the lab cannot grade here: fix the FAIL lines above"),
};

/* LAB_CAN_NOTHING, although kernels build: no GPU and no simulator to run them. */
static const char build_only[] = N_("the lab compiles and checks kernels here, but has no GPU and "
                                    "no simulator to run them: grades end in NO_GPU");

static void
on_check(const char *name, void *arg)
{
    const lab_cli *cli = arg;

    if (cli->tty_err && !cli->json) {
        fprintf(stderr, "\r\033[K");
        fprintf(stderr, _("checking %s ..."), name);
    }
}

static void
print_json(const lab_doctor *d)
{
    cJSON *o = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(o, "checks");
    static const char *const can_names[] = { "gpu", "sim", "none" };

    for (size_t i = 0; i < d->nchecks; i++) {
        cJSON *c = cJSON_CreateObject();
        cJSON_AddStringToObject(c, "name", d->checks[i].name);
        cJSON_AddStringToObject(c, "state", states[d->checks[i].state].word);
        cJSON_AddStringToObject(c, "found", d->checks[i].found.buf);
        cJSON_AddStringToObject(c, "fix", d->checks[i].fix.buf);
        cJSON_AddItemToArray(arr, c);
    }
    cJSON_AddStringToObject(o, "can_grade", can_names[d->can]);
    cJSON_AddBoolToObject(o, "can_build", d->can_build);
    cJSON_AddStringToObject(o, "nvcc_version", d->nvcc_version);
    cJSON_AddNumberToObject(o, "driver_version", d->gpu.driver_version);
    cJSON_AddStringToObject(o, "gpu", d->gpu.present ? d->gpu.name : "");
    lab_cli_print_json(o);
}

static int
doctor_run(lab_cli *cli, const lab_cli_args *args)
{
    lab_doctor *d;

    cli->json = lab_cli_args_has(args, "json");
    if (!(d = malloc(sizeof(*d))))
        return lab_cli_error(_("out of memory"));
    lab_doctor_init(d);
    lab_doctor_run(cli->lab, cli->open_error, d, on_check, cli);
    if (cli->tty_err && !cli->json)
        fprintf(stderr, "\r\033[K");
    if (cli->json) {
        print_json(d);
    } else {
        for (size_t i = 0; i < d->nchecks; i++) {
            const lab_check *c = &d->checks[i];
            int w = (int)lab_text_widths(c->name); /* by display width: a translated name too */
            printf("%s%-4s%s  %s%*s %s\n", lab_cli_sgr(cli, states[c->state].color),
                   states[c->state].word, lab_cli_reset(cli), c->name, w < 18 ? 18 - w : 0, "",
                   c->found.buf);
            if (c->fix.len)
                printf(_("      %-18s fix: %s\n"), "", c->fix.buf);
        }
        printf("\n%s%s%s\n", lab_cli_sgr(cli, "1"),
               _(d->can == LAB_CAN_NOTHING && d->can_build ? build_only : outcomes[d->can]),
               lab_cli_reset(cli));
    }
    int status = (int)d->can;
    lab_doctor_release(d);
    free(d);
    return status;
}

static const lab_cli_param opts[] = {
    LAB_CLI_OPT("json", "every check and what the lab can do here, as JSON"),
    LAB_CLI_END,
};

const lab_cmd lab_cmd_doctor = {
    .name = "doctor",
    .help = N_("check nvcc, the NVIDIA driver, the GPU, the tools and the store, with fixes"),
    .opts = opts,
    .without_lab = true,
    .run = doctor_run,
};
