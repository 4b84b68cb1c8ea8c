/*
 * main.c - cudalab's entry point: global options, then one command from the
 * table in cmd-table.c.  With no command it opens the full-screen menu when
 * stdin and stdout are a terminal, else it lists the catalog and how to begin.
 *
 * `cudalab --dump-commands` (not in --help: for the build) prints the command
 * table; the man page and the shell completions are generated from it.
 */
#include "lab/cli/cli.h"
#include "lab/platform/proc.h"
#include "lab/build/toolchain.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LAB_VERSION "0.1.0"

static void
usage(FILE *fp)
{
    fprintf(fp, "usage: cudalab [--version] [--help] COMMAND [ARGS]\n\ncommands:\n");
    for (size_t i = 0; i < lab_cmd_count; i++)
        fprintf(fp, "  %-8s %-28s %s\n", lab_cmds[i]->name, lab_cmds[i]->args, lab_cmds[i]->help);
    fprintf(fp, "\nExit status: 0 pass, 1 any other verdict, 2 usage or lab error.\n"
                "Environment: CUDALAB_DB (progress database), CUDALAB_ARCH (build target when "
                "there is no GPU; default " LAB_DEFAULT_ARCH "), CUDALAB_CACHE_DIR, NO_COLOR.\n");
}

/* After the bare `cudalab` listing: how to begin. */
static void
print_first_steps(const lab_catalog *cat)
{
    const char *first =
        lab_catalog_exercise_count(cat) ? lab_catalog_exercise(cat, 0)->id : "EXERCISE";

    printf("\nStart with:  cudalab start %s   (then: cudalab grade %s)\n"
           "All commands: cudalab help\n",
           first, first);
}

/* The lab's version, nvcc's and the NVIDIA driver's (the driver through the device probe). */
static int
print_version(void)
{
    lab_toolchain *tc = NULL;
    lab_err err = LAB_ERR_INIT;
    const lab_device *dev;
    lab *l = NULL;

    printf("cudalab " LAB_VERSION "\n");
    if (lab_toolchain_find(&tc, &err) == 0)
        printf("nvcc %s (%s)\n", lab_toolchain_version(tc), lab_toolchain_nvcc(tc));
    else
        printf("nvcc: %s\n", err.msg);
    lab_toolchain_free(tc);
    if (lab_open(&l, &err) < 0 || lab_device_probe(l, &dev, &err) < 0)
        printf("NVIDIA driver: unknown (%s)\n", err.msg);
    else if (!dev->driver_found)
        printf("NVIDIA driver: none (%s)\n", dev->driver_library);
    else
        printf("NVIDIA driver for CUDA %d.%d (%s)\n", dev->driver_version / 1000,
               dev->driver_version % 1000 / 10, dev->driver_library);
    lab_close(l);
    return LAB_EXIT_OK;
}

int
main(int argc, char **argv)
{
    lab_cli cli = { 0 };
    lab_err err = LAB_ERR_INIT;
    const lab_cmd *cmd;
    int status;
    bool bare_list;

    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        usage(stdout);
        return LAB_EXIT_OK;
    }
    if (argc > 1 && !strcmp(argv[1], "--version"))
        return print_version();
    if (argc > 1 && !strcmp(argv[1], "--dump-commands")) {
        lab_cli_dump_commands(stdout);
        return LAB_EXIT_OK;
    }
    if (argc > 1 && argv[1][0] == '-') {
        usage(stderr);
        return lab_cli_error("unknown option '%s'", argv[1]);
    }
    bare_list = argc == 1 && !(isatty(STDIN_FILENO) && isatty(STDOUT_FILENO));
    cmd = lab_cli_find(argc > 1 ? argv[1] : bare_list ? "list" : "menu");
    if (!cmd) {
        usage(stderr);
        return lab_cli_error("unknown command '%s'", argv[1]);
    }
    /* `cudalab COMMAND --help`: the command's usage, whatever else follows */
    if (argc > 2 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
        lab_cli_print_usage(cmd, stdout);
        return LAB_EXIT_OK;
    }
    if (lab_proc_install_cleanup(&err) < 0)
        return lab_cli_error("%s", err.msg);
    /* no-color.org: NO_COLOR present and not empty turns colour off */
    cli.color = isatty(STDOUT_FILENO) && !(getenv("NO_COLOR") && *getenv("NO_COLOR"));
    cli.tty_err = isatty(STDERR_FILENO);
    if (lab_open(&cli.lab, &err) < 0) {
        if (!cmd->without_lab)
            return lab_cli_error("%s", err.msg);
        cli.open_error = err.msg;
    }
    status = cmd->run(&cli, argc > 1 ? argc - 2 : 0, argc > 1 ? argv + 2 : argv + argc);
    if (bare_list)
        print_first_steps(lab_catalog_of(cli.lab));
    lab_close(cli.lab);
    return status;
}
