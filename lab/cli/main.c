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

#include "lab/grade/store.h"

#define LAB_VERSION "0.1.0"

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
        printf(_("\nNext:  cudalab start %s   (then: cudalab grade %s)\n"), next->id, next->id);
    else
        printf(_("\nEvery exercise is passed.\n"));
    printf(_("All commands: cudalab help\n"));
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
        lab_cli_error(_("'--%s' is an option of a command and goes after it (%s): cudalab %s ... "
                        "--%s"),
                      name.buf, takers.buf, first->name, name.buf);
    else
        lab_cli_error(_("unknown option '%s' (usage: cudalab [--version] [--help] [--lang LANG] "
                        "COMMAND [ARGS]; cudalab help lists the commands)"),
                      word);
    lab_buf_release(&name);
    lab_buf_release(&takers);
    return LAB_EXIT_ERROR;
}

/* The language the menu saved in the store ("lang"), if the store is there; "" otherwise.
 * Nothing is created: a lab that has not been used yet has no setting. */
static void
saved_language(lab_buf *out)
{
    lab_buf path = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    lab_store *st = NULL;

    if (lab_store_default_path(&path, &err) == 0 && access(path.buf, F_OK) == 0 &&
        lab_store_open(path.buf, &st, &err) == 0)
        lab_store_setting(st, "lang", out, &err);
    lab_store_close(st);
    lab_buf_release(&path);
}

/* The messages' language: --lang, else the menu's saved choice, else the environment's
 * (docs/design/i18n.md).  A --lang without messages is a usage error. */
static int
start_messages(const char *lang)
{
    lab_buf saved = LAB_BUF_INIT, note = LAB_BUF_INIT;
    lab_strvec langs = LAB_STRVEC_INIT;
    lab_err err = LAB_ERR_INIT;
    char *localedir = lab_localedir_find();
    int status = LAB_EXIT_OK;
    bool known = false;

    if (lang && !*lang) {
        status = lab_cli_error(_("--lang needs a language: en, ko or zh_CN"));
        goto out;
    }
    if (lang && !lab_i18n_valid_name(lang)) {
        status = lab_cli_error(_("--lang '%s' is not a language name, like ko or zh_CN"), lang);
        goto out;
    }
    if (!lang) {
        saved_language(&saved);
        lang = saved.buf;
    }
    if (lab_i18n_start(localedir, lang, &note, &err) < 0) {
        status = lab_cli_error("%s", err.msg);
        goto out;
    }
    if (note.len)
        fprintf(stderr, "cudalab: %s\n", note.buf);
    if (!lang || lang == saved.buf)
        goto out;
    if (lab_i18n_languages(&langs, &err) < 0) {
        status = lab_cli_error("%s", err.msg);
        goto out;
    }
    for (size_t i = 0; i < langs.n; i++)
        known = known || !strcmp(langs.v[i], lang);
    if (!known) {
        lab_buf list = LAB_BUF_INIT;

        for (size_t i = 0; i < langs.n; i++)
            lab_buf_printf(&list, "%s%s", i ? ", " : "", langs.v[i]);
        status = lab_cli_error(_("no messages in '%s' (the languages: %s)"), lang, list.buf);
        lab_buf_release(&list);
    }
out:
    lab_strvec_release(&langs);
    lab_buf_release(&saved);
    lab_buf_release(&note);
    free(localedir);
    return status;
}

/* --lang LANG or --lang=LANG, before the command or among its words (up to a "--"): its value,
 * and the words taken out of argv, which keeps its NULL at the end.  The last one given counts. */
static const char *
take_lang(int *argc, char **argv)
{
    const char *value = NULL;
    int i = 1;

    while (i < *argc && strcmp(argv[i], "--")) {
        int used = 0;

        if (!strcmp(argv[i], "--lang")) {
            /* without a value: "", which start_messages refuses */
            value = i + 1 < *argc ? argv[i + 1] : "";
            used = i + 1 < *argc ? 2 : 1;
        } else if (!strncmp(argv[i], "--lang=", 7)) {
            value = argv[i] + 7;
            used = 1;
        }
        if (!used) {
            i++;
            continue;
        }
        memmove(&argv[i], &argv[i + used], (size_t)(*argc - i - used + 1) * sizeof(*argv));
        *argc -= used;
    }
    return value;
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
        printf(_("NVIDIA driver: unknown (%s)\n"), err.msg);
    else if (!dev->driver_found)
        printf(_("NVIDIA driver: none (%s)\n"), dev->driver_library);
    else
        printf(_("NVIDIA driver for CUDA %d.%d (%s)\n"), dev->driver_version / 1000,
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
    const char *lang;
    bool bare_list;

    lang = take_lang(&argc, argv);
    if ((status = start_messages(lang)) != LAB_EXIT_OK)
        return status;
    if (argc > 1 && !strcmp(argv[1], "--dump-commands")) {
        /* the man page and the completions are made from it: English, as the page is */
        lab_i18n_english(true);
        lab_cli_dump_commands(stdout);
        return LAB_EXIT_OK;
    }
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        lab_cli_print_overview(stdout);
        return LAB_EXIT_OK;
    }
    if (argc > 1 && !strcmp(argv[1], "--version"))
        return print_version();
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
    /* what programs read is English in every language, the lab's own errors included */
    lab_i18n_english(lab_cli_english_output(&args));
    if (lab_trace_start("cudalab", &err) < 0 || lab_proc_install_cleanup(&err) < 0) {
        lab_cli_error("%s", err.msg);
        goto out;
    }
    /* no-color.org: NO_COLOR present and not empty turns colour off */
    cli.color = isatty(STDOUT_FILENO) && !(getenv("NO_COLOR") && *getenv("NO_COLOR"));
    cli.tty_err = isatty(STDERR_FILENO);
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
