/*
 * main.c - the driver program, libexec/cudalab/cudalab-driver: the one main
 * of every driver.  Its first argument names what it runs:
 *   a kernel-signature family   cudalab-driver reduce-int --report-fd 3 ...   (driver.h)
 *   a chapter's demo            cudalab-driver demo-divergence ...           (demodrv.h)
 *   the device probe            cudalab-driver device-probe --report-fd 3 [--backend B]
 * The families come from lab/drivers/families.c (one per row of the registry,
 * lab/catalog/families.def), the demos from lab/demos/demos.c.
 *
 * The driver holds the report pipe and the reference's path, and runs code it does not trust
 * (host-code exercises call the student's function in a child of its own, common/host.c):
 * it makes itself non-dumpable, so that no process of the same user without the rights to trace
 * it can open its descriptors through /proc/PID/fd, and it blanks the modules' paths in its
 * command line after copying it, so that /proc/PID/cmdline shows none of them.
 */
#include "common/demodrv.h"
#include "common/driver.h"
#include "common/host.h"
#include "lab/util/trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

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

static void
free_arguments(char **v)
{
    for (size_t i = 0; v && v[i]; i++)
        free(v[i]);
    free(v);
}

/* A copy of argv for the program (free_arguments), and the modules' paths blanked where
 * /proc/PID/cmdline reads them ("--reference=PATH", or "--reference PATH"). */
static char **
hide_modules(int argc, char **argv)
{
    static const char *const secret[] = { "--student", "--baseline", "--reference" };
    char **copy = calloc((size_t)argc + 1, sizeof(*copy));

    for (int i = 0; copy && i < argc; i++)
        if (!(copy[i] = strdup(argv[i]))) {
            free_arguments(copy);
            return NULL;
        }
    for (int i = 2; copy && i < argc; i++)
        for (size_t k = 0; k < ARRAY_SIZE(secret); k++) {
            size_t n = strlen(secret[k]);
            if (strncmp(argv[i], secret[k], n) || (argv[i][n] && argv[i][n] != '='))
                continue;
            if (argv[i][n] == '=')
                memset(argv[i] + n + 1, 0, strlen(argv[i] + n + 1));
            else if (i + 1 < argc)
                memset(argv[i + 1], 0, strlen(argv[i + 1]));
        }
    return copy;
}

/* The program argv[1] names, on argv[1..]. */
static int
run_program(int argc, char **argv)
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

/* "cudalab-driver host-call FAMILY SYMBOL...": the student's process of a host-code family
 * (common/host.h), exec'd afresh by its driver so that it holds nothing of the driver's. */
static int
host_call(int argc, char **argv)
{
    for (size_t i = 0; argc > 2 && i < lab_family_program_count; i++)
        if (!strcmp(argv[2], lab_family_programs[i].name))
            lab_host_child_main(lab_family_programs[i].driver->host_call, argc - 2, argv + 2);
    lab_host_child_main(NULL, 0, NULL); /* reports the wrong start, and exits */
}

int
main(int argc, char **argv)
{
    lab_err err = LAB_ERR_INIT;
    char **args;
    int status;

    if (argc > 1 && !strcmp(argv[1], LAB_HOST_CALL_PROGRAM))
        return host_call(argc, argv);
    if (lab_trace_start("driver", &err) < 0)
        fprintf(stderr, "cudalab-driver: %s\n", err.msg); /* the grading goes on untraced */
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0 || !(args = hide_modules(argc, argv))) {
        fprintf(stderr, "cudalab-driver: cannot protect its report channel\n");
        return 2;
    }
    status = run_program(argc, args);
    free_arguments(args);
    return status;
}
