/*
 * main.c - cudalab's entry point: global options, then one command from the
 * table in cmd-table.c.  With no command it opens the full-screen menu when
 * stdin and stdout are a terminal, else it lists the catalog and how to begin.
 *
 * The command's words are parsed (args.c) before the lab opens: `cudalab CMD --help`
 * and usage errors need no catalog.  `cudalab --dump-commands` (not in --help: for the
 * build) prints the command table with every argument and option; the man page and the
 * shell completions are generated from it.
 */
#include "lab/cli/cli.h"
#include "lab/platform/proc.h"
#include "lab/build/toolchain.h"
#include "lab/util/trace.h"

#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/util/lang.h"

#define LAB_VERSION "0.1.0"

#define USAGE "usage: cudalab [--version] [--help] COMMAND [ARGS]; cudalab help lists the commands"

/* Translations are shown only in a UTF-8 locale: say once why a learner who asked for one
 * reads English. */
static void
note_english_only(void)
{
    lab_lang lang;

    lab_lang_from_env(&lang);
    if (lang.n && !lab_lang_utf8())
        fprintf(stderr,
                "cudalab: note: '%s' is asked for, but the locale is not UTF-8: the "
                "course is shown in English (try LANG=C.UTF-8 LANGUAGE=%s)\n",
                lab_lang_first(&lang), lab_lang_first(&lang));
}

/* After the bare `cudalab` listing: how to go on, with the first exercise not passed. */
static void
print_first_steps(lab *l)
{
    const lab_exercise *next = NULL;
    lab_err err = LAB_ERR_INIT;
    lab_store *st;

    if (lab_store_of(l, &st, &err) == 0)
        lab_work_next(lab_catalog_of(l), st, NULL, &next, &err);
    if (next)
        printf("\nNext:  cudalab start %s   (then: cudalab grade %s)\n", next->id, next->id);
    else
        printf("\nEvery exercise is passed.\n");
    printf("All commands: cudalab help\n");
}

/* An option before the command: name the commands that take it, for it goes after one. */
static int
misplaced_option(const char *word)
{
    const char *bare = word + strspn(word, "-");
    lab_buf name = LAB_BUF_INIT, takers = LAB_BUF_INIT;
    const lab_cmd *first = NULL;

    lab_buf_add(&name, bare, strcspn(bare, "="));
    for (size_t i = 0; i < lab_cmd_count; i++)
        if (lab_cli_find_opt(lab_cmds[i], name.buf)) {
            lab_buf_printf(&takers, "%s%s", first ? ", " : "", lab_cmds[i]->name);
            first = first ? first : lab_cmds[i];
        }
    if (first)
        lab_cli_error("'--%s' is an option of a command and goes after it (%s): cudalab %s ... "
                      "--%s",
                      name.buf, takers.buf, first->name, name.buf);
    else
        lab_cli_error("unknown option '%s' (" USAGE ")", word);
    lab_buf_release(&name);
    lab_buf_release(&takers);
    return LAB_EXIT_ERROR;
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
    lab_cli_args args = { 0 };
    lab_err err = LAB_ERR_INIT;
    const lab_cmd *cmd;
    int status;
    bool bare_list;

    setlocale(LC_CTYPE, ""); /* display widths of Hangul and Hanzi (lab/util/textwidth.h) */
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        lab_cli_print_overview(stdout);
        return LAB_EXIT_OK;
    }
    if (argc > 1 && !strcmp(argv[1], "--version"))
        return print_version();
    if (argc > 1 && !strcmp(argv[1], "--dump-commands")) {
        lab_cli_dump_commands(stdout);
        return LAB_EXIT_OK;
    }
    if (argc > 1 && argv[1][0] == '-')
        return misplaced_option(argv[1]);
    bare_list = argc == 1 && !(isatty(STDIN_FILENO) && isatty(STDOUT_FILENO));
    cmd = lab_cli_find(argc > 1 ? argv[1] : bare_list ? "list" : "menu");
    if (!cmd)
        return lab_cli_unknown_command(NULL, argv[1]);
    /* the words first, so that `cudalab CMD --help` and usage errors need no lab */
    status =
        lab_cli_args_read(cmd, argc > 1 ? argc - 2 : 0, argc > 1 ? argv + 2 : argv + argc, &args);
    if (status != LAB_EXIT_OK || args.help)
        goto out;
    status = LAB_EXIT_ERROR;
    if (lab_trace_start("cudalab", &err) < 0 || lab_proc_install_cleanup(&err) < 0) {
        lab_cli_error("%s", err.msg);
        goto out;
    }
    /* no-color.org: NO_COLOR present and not empty turns colour off */
    cli.color = isatty(STDOUT_FILENO) && !(getenv("NO_COLOR") && *getenv("NO_COLOR"));
    cli.tty_err = isatty(STDERR_FILENO);
    note_english_only();
    if (lab_open(&cli.lab, &err) < 0) {
        if (!cmd->without_lab) {
            lab_cli_error("%s", err.msg);
            goto out;
        }
        cli.open_error = err.msg;
    }
    lab_trace_mark("lab open: %s", cmd->name);
    status = cmd->run(&cli, &args);
    lab_trace_mark("done: exit %d", status);
    if (bare_list)
        print_first_steps(cli.lab);
    lab_close(cli.lab);
out:
    lab_cli_args_release(&args);
    return status;
}
