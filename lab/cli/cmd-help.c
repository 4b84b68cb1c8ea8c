/*
 * cmd-help.c - `cudalab help [COMMAND]`, and the command table as text: the usage
 * lines, `cudalab --help`, `cudalab CMD --help` and the rows of `--dump-commands`
 * from which the build makes the man page and the completions.  All of it comes
 * from the declarations of cli.h; no command writes its usage by hand.
 */
#include "lab/cli/cli.h"
#include "lab/build/toolchain.h"

#include <assert.h>
#include <stdarg.h>
#include <string.h>

/* The help column of `cudalab --help` and `cudalab help CMD`. */
#define HELP_COLUMN 30

void
lab_cli_param_value(const lab_cli_param *p, lab_buf *out)
{
    if (p->metavar) {
        lab_buf_adds(out, p->metavar);
        return;
    }
    for (size_t i = 0; p->choices && p->choices[i]; i++)
        lab_buf_printf(out, "%s%s", i ? "|" : "", p->choices[i]);
}

/* " EXERCISE [FILE]": consecutive optional arguments nest, "[QUESTION [ANSWER]]". */
static void
args_synopsis(const lab_cmd *cmd, lab_buf *out)
{
    static const char *const forms[LAB_CLI_OCCURS_COUNT] = {
        [LAB_CLI_OPTIONAL] = " [%s",
        [LAB_CLI_REQUIRED] = " %s",
        [LAB_CLI_REPEATED] = " %s...",
        [LAB_CLI_ANY] = " [%s...]",
    };
    size_t open = 0;

    for (const lab_cli_param *p = cmd->args; p && p->name; p++) {
        lab_buf_printf(out, forms[p->occurs], p->name);
        open += p->occurs == LAB_CLI_OPTIONAL;
    }
    while (open--)
        lab_buf_addch(out, ']');
}

/* "--seed N", or "-s, --seed N" where there is a short form; a positional's name. */
static void
param_name(const lab_cli_param *p, bool opt, lab_buf *out)
{
    if (!opt) {
        lab_buf_adds(out, p->name);
        return;
    }
    if (p->short_name)
        lab_buf_printf(out, "-%c, ", p->short_name);
    lab_buf_printf(out, "--%s", p->name);
    if (p->type != LAB_CLI_FLAG) {
        lab_buf_addch(out, ' ');
        lab_cli_param_value(p, out);
    }
}

/* " [--json] [--seed N] --yes [--from LIST]...": required options without brackets. */
static void
opts_synopsis(const lab_cmd *cmd, lab_buf *out)
{
    for (const lab_cli_param *p = cmd->opts; p && p->name; p++) {
        bool required = p->occurs == LAB_CLI_REQUIRED || p->occurs == LAB_CLI_REPEATED;
        lab_buf_adds(out, required ? " " : " [");
        lab_buf_printf(out, "--%s", p->name);
        if (p->type != LAB_CLI_FLAG) {
            lab_buf_addch(out, ' ');
            lab_cli_param_value(p, out);
        }
        lab_buf_adds(out, required ? "" : "]");
        lab_buf_adds(out, p->occurs >= LAB_CLI_REPEATED ? "..." : "");
    }
}

void
lab_cli_synopsis(const lab_cmd *cmd, lab_buf *out)
{
    lab_buf_printf(out, "cudalab %s", cmd->name);
    args_synopsis(cmd, out);
    opts_synopsis(cmd, out);
}

int
lab_cli_usage_error(const lab_cmd *cmd, const char *fmt, ...)
{
    lab_buf usage = LAB_BUF_INIT, msg = LAB_BUF_INIT;
    va_list ap;

    lab_buf_printf(&msg, "cudalab %s: ", cmd->name);
    va_start(ap, fmt);
    lab_buf_vprintf(&msg, fmt, ap);
    va_end(ap);
    lab_cli_synopsis(cmd, &usage);
    lab_buf_printf(&msg, _(" (usage: %s)\n"), usage.buf);
    lab_cli_put_shown(stderr, msg.buf, msg.len); /* the arguments quoted are the user's */
    lab_buf_release(&usage);
    lab_buf_release(&msg);
    return LAB_EXIT_ERROR;
}

/* Whether p as shown leaves its choices out: "--family FAMILY", not "--format gradescope". */
static bool
hides_choices(const lab_cli_param *p, bool opt)
{
    if (p->type != LAB_CLI_CHOICE)
        return false;
    if (opt)
        return p->metavar != NULL;
    return !(p->choices[0] && !p->choices[1] && !strcmp(p->choices[0], p->name));
}

/* "  name        help", the help in its column (on the next line when the name is long),
 * then the choices of choices_of, when not NULL. */
static void
print_row(FILE *fp, int indent, const char *name, const char *help, const lab_cli_param *choices_of)
{
    int width = HELP_COLUMN - indent;

    help = *help ? _(help) : help; /* gettext("") is the catalog's header */
    if ((int)strlen(name) < width)
        fprintf(fp, "%*s%-*s %s", indent, "", width, name, help);
    else
        fprintf(fp, "%*s%s\n%*s %s", indent, "", name, HELP_COLUMN, "", help);
    for (size_t i = 0; choices_of && choices_of->choices[i]; i++)
        fprintf(fp, "%s%s", i ? ", " : _(" (one of: "), choices_of->choices[i]);
    fprintf(fp, "%s\n", choices_of ? ")" : "");
}

static void
print_params(FILE *fp, int indent, const lab_cli_param *list, bool opt)
{
    lab_buf name = LAB_BUF_INIT;

    for (const lab_cli_param *p = list; p && p->name; p++) {
        lab_buf_reset(&name);
        param_name(p, opt, &name);
        print_row(fp, indent, name.buf, p->help, hides_choices(p, opt) ? p : NULL);
    }
    lab_buf_release(&name);
}

void
lab_cli_print_usage(const lab_cmd *cmd, FILE *fp)
{
    lab_buf usage = LAB_BUF_INIT;

    lab_cli_synopsis(cmd, &usage);
    fprintf(fp, _("usage: %s\n"), usage.buf);
    fprintf(fp, "%s\n", _(cmd->help));
    if (cmd->args && cmd->args[0].name) {
        fprintf(fp, "\n%s\n", _("arguments:"));
        print_params(fp, 2, cmd->args, false);
    }
    if (cmd->opts && cmd->opts[0].name) {
        fprintf(fp, "\n%s\n", _("options:"));
        print_params(fp, 2, cmd->opts, true);
    }
    if (cmd->more_help)
        cmd->more_help(fp);
    lab_buf_release(&usage);
}

void
lab_cli_print_overview(FILE *fp)
{
    lab_buf left = LAB_BUF_INIT;

    fprintf(fp, _("usage: %s\n"), "cudalab [--version] [--help] [--lang LANG] COMMAND [ARGS]");
    for (int g = 0; g < LAB_CLI_GROUP_COUNT; g++) {
        fprintf(fp, "\n");
        fprintf(fp, _("commands %s:\n"), _(lab_cli_group_titles[g]));
        for (size_t i = 0; i < lab_cmd_count; i++) {
            if (lab_cmds[i]->group != (lab_cli_group)g)
                continue;
            lab_buf_reset(&left);
            lab_buf_adds(&left, lab_cmds[i]->name);
            args_synopsis(lab_cmds[i], &left);
            print_row(fp, 2, left.buf, lab_cmds[i]->help, NULL);
            print_params(fp, 6, lab_cmds[i]->opts, true);
        }
    }
    fprintf(fp, "\n");
    fprintf(fp,
            _("`cudalab help COMMAND` (or `cudalab COMMAND --help`) explains a command's "
              "arguments.\n"
              "Exercise ids are CHAPTER/EXERCISE, e.g. reduction/neighbored-less.\n"
              "Exit status: 0 pass, 1 any other verdict, 2 usage or lab error.\n"
              "Language: --lang LANG (en, ko, zh_CN; the menu remembers its choice), else "
              "LANGUAGE, LC_ALL, LC_MESSAGES and LANG; --json output is English in every "
              "language.\n"
              "Environment: CUDALAB_DB (progress database), CUDALAB_ARCH (build target when "
              "there is no GPU; default %s), CUDALAB_CACHE_DIR, NO_COLOR.\n"),
            LAB_DEFAULT_ARCH);
    lab_buf_release(&left);
}

/* A field of a --dump-commands row: no tab, no newline in a declaration. */
static const char *
field(const char *s)
{
    assert(!s || !strpbrk(s, "\t\n"));
    return s ? s : "";
}

static void
dump_choices(FILE *fp, const lab_cli_param *p)
{
    for (size_t i = 0; p->choices && p->choices[i]; i++)
        fprintf(fp, "%s%s", i ? "," : "", field(p->choices[i]));
}

void
lab_cli_dump_commands(FILE *fp)
{
    lab_buf text = LAB_BUF_INIT;

    for (size_t i = 0; i < lab_cmd_count; i++) {
        const lab_cmd *cmd = lab_cmds[i];
        lab_buf_reset(&text);
        args_synopsis(cmd, &text);
        opts_synopsis(cmd, &text);
        fprintf(fp, "command\t%s\t%s\t%s\t%s\n", cmd->name, text.len ? text.buf + 1 : "",
                field(cmd->help), lab_cli_group_titles[cmd->group]);
        for (const lab_cli_param *p = cmd->args; p && p->name; p++) {
            fprintf(fp, "arg\t%s\t%s\t%s\t%s\t", cmd->name, field(p->name),
                    lab_cli_type_names[p->type], lab_cli_occurs_names[p->occurs]);
            dump_choices(fp, p);
            fprintf(fp, "\t%s\n", field(p->help));
        }
        for (const lab_cli_param *p = cmd->opts; p && p->name; p++) {
            char short_form[3] = { p->short_name ? '-' : '\0', p->short_name, '\0' };
            lab_buf_reset(&text);
            lab_cli_param_value(p, &text);
            fprintf(fp, "option\t%s\t--%s\t%s\t%s\t%s\t%s\t", cmd->name, field(p->name), short_form,
                    lab_cli_type_names[p->type], text.buf, lab_cli_occurs_names[p->occurs]);
            dump_choices(fp, p);
            fprintf(fp, "\t%s\n", field(p->help));
        }
    }
    lab_buf_release(&text);
}

static int
help_run(lab_cli *cli, const lab_cli_args *args)
{
    const char *name = lab_cli_args_pos(args, 0);
    const lab_cmd *cmd;

    if (!name) {
        lab_cli_print_overview(stdout);
        return LAB_EXIT_OK;
    }
    if (!(cmd = lab_cli_find(name)))
        return lab_cli_unknown_command(cli, name);
    lab_cli_print_usage(cmd, stdout);
    return LAB_EXIT_OK;
}

static const lab_cli_param args[] = {
    LAB_CLI_ARG("COMMAND", LAB_CLI_COMMAND, LAB_CLI_OPTIONAL, "the one to explain (default: all)"),
    LAB_CLI_END,
};

const lab_cmd lab_cmd_help = {
    .name = "help",
    .help = N_("show the commands, or one command's usage"),
    .args = args,
    .run = help_run,
};
