/*
 * main.c - the driver program, libexec/cudalab/cudalab-driver: the one main
 * of every driver.  Its first argument names what it runs:
 *   a kernel-signature family   cudalab-driver reduce-int --report-fd 3 ...   (driver.h)
 *   a chapter's demo            cudalab-driver demo-divergence ...           (demodrv.h)
 *   the device probe            cudalab-driver device-probe --report-fd 3 [--backend B]
 * The families come from lab/drivers/families.c (one per row of the registry,
 * lab/catalog/families.def), the demos from lab/demos/demos.c.
 */
#include "lab/harness/demodrv.h"
#include "lab/harness/driver.h"

#include <stdio.h>
#include <string.h>

static int
usage(const char *what)
{
    fprintf(stderr,
            "cudalab-driver: %s\nusage: cudalab-driver PROGRAM OPTIONS...\nprograms:", what);
    for (size_t i = 0; i < lab_family_program_count; i++)
        fprintf(stderr, " %s", lab_family_programs[i].name);
    for (size_t i = 0; i < lab_demo_program_count; i++)
        fprintf(stderr, " %s", lab_demo_programs[i].name);
    fprintf(stderr, " device-probe\n");
    return 2;
}

int
main(int argc, char **argv)
{
    const char *name = argc > 1 ? argv[1] : "";
    char msg[128];

    if (!*name || *name == '-')
        return usage("the first argument names the program to run");
    for (size_t i = 0; i < lab_family_program_count; i++)
        if (!strcmp(name, lab_family_programs[i].name))
            return lab_driver_main(lab_family_programs[i].driver, name, argc - 1, argv + 1);
    for (size_t i = 0; i < lab_demo_program_count; i++)
        if (!strcmp(name, lab_demo_programs[i].name))
            return lab_demodrv_main(lab_demo_programs[i].demo, name, argc - 1, argv + 1);
    if (!strcmp(name, "device-probe"))
        return lab_driver_main(NULL, name, argc - 1, argv + 1);
    snprintf(msg, sizeof(msg), "unknown program '%.64s'", name);
    return usage(msg);
}
