/*
 * cmd-device.c - `cudalab device [--json]`: the GPU the lab grades on, or
 * why there is none.
 */
#include "lab/cli/cli.h"

#include <cJSON.h>
#include <stdlib.h>
#include <string.h>

static int
device_run(lab_cli *cli, int argc, char **argv)
{
    const lab_device *dev;
    lab_err err = LAB_ERR_INIT;

    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--json"))
            cli->json = true;
        else
            return lab_cli_error("device: unexpected argument '%s'", argv[i]);
    }
    if (lab_device_probe(cli->lab, &dev, &err) < 0)
        return lab_cli_error("%s", err.msg);
    if (cli->json) {
        cJSON *o = cJSON_CreateObject();
        char *text;
        cJSON_AddBoolToObject(o, "present", dev->present);
        cJSON_AddStringToObject(o, "name", dev->name);
        cJSON_AddStringToObject(o, "cc", dev->cc);
        cJSON_AddStringToObject(o, "arch", dev->arch);
        cJSON_AddNumberToObject(o, "peak_gbps", dev->peak_gbps);
        cJSON_AddStringToObject(o, "reason", dev->reason);
        text = cJSON_Print(o);
        if (text)
            puts(text);
        free(text);
        cJSON_Delete(o);
    } else if (dev->present) {
        printf("GPU: %s (compute capability %s, builds for %s), memory peak %.0f GB/s\n", dev->name,
               dev->cc, dev->arch, dev->peak_gbps);
    } else {
        printf("no GPU: %s\nThe lab compiles and checks your kernels; speed and results need an "
               "NVIDIA GPU.\n",
               dev->reason);
    }
    return dev->present ? LAB_EXIT_OK : LAB_EXIT_VERDICT;
}

const lab_cmd lab_cmd_device = {
    .name = "device",
    .args = "[--json]",
    .help = "show the GPU in use, or why there is none",
    .run = device_run,
};
