/*
 * cmd-device.c - `cudalab device [--json]`: the GPU the lab grades on, or
 * why there is none.
 */
#include "lab/cli/cli.h"
#include "lab/build/occupancy.h"

#include <cJSON.h>

static int
device_run(lab_cli *cli, const lab_cli_args *args)
{
    const lab_device *dev;
    char why[512];
    lab_err err = LAB_ERR_INIT;

    cli->json = lab_cli_args_has(args, "json");
    lab_device_forget(cli->lab); /* this command looks again, and keeps what it finds */
    if (lab_device_probe(cli->lab, &dev, &err) < 0)
        return lab_cli_error("%s", err.msg);
    if (cli->json) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddBoolToObject(o, "present", dev->present);
        cJSON_AddStringToObject(o, "name", dev->name);
        cJSON_AddStringToObject(o, "cc", dev->cc);
        cJSON_AddStringToObject(o, "arch", dev->arch);
        cJSON_AddNumberToObject(o, "peak_gbps", dev->peak_gbps);
        cJSON_AddStringToObject(o, "reason", dev->reason);
        lab_cli_print_json(o);
    } else if (dev->present) {
        printf(_("GPU: %s (compute capability %s, builds for %s), memory peak %.0f GB/s\n"),
               dev->name, dev->cc, dev->arch, dev->peak_gbps);
    } else {
        printf(_("no GPU: %s\n"
                 "Without a GPU the lab grades your kernels on its PTX simulator: their results,\n"
                 "and the simulator's checks for races, barriers and out-of-bounds accesses.\n"
                 "Speed is judged on H100 times that a performance model makes from the\n"
                 "simulator's counts, and says so; measured times need an NVIDIA GPU.\n"),
               lab_device_reason(dev, why, sizeof(why)));
        printf(lab_occupancy_arch(lab_target_arch(dev))
                   ? _("The occupancy calculator is checked against the lab's own limits for %s.\n")
                   : _("The lab has no limits of %s of its own: the occupancy calculator needs a "
                       "GPU.\n"),
               lab_target_arch(dev));
    }
    return dev->present ? LAB_EXIT_OK : LAB_EXIT_VERDICT;
}

static const lab_cli_param opts[] = {
    LAB_CLI_OPT("json", "the GPU (or the reason there is none) as JSON"),
    LAB_CLI_END,
};

const lab_cmd lab_cmd_device = {
    .name = "device",
    .help = N_("show the GPU in use, or why there is none"),
    .opts = opts,
    .run = device_run,
};
