/*
 * args.c - the one parser of command lines: a command's words read against the
 * positional arguments and options it declares (cli.h).  main(), the shell and watch
 * call it through lab_cli_args_read (lab_cli_args_parse, then lab_cli_args_check);
 * the shell's completion asks lab_cli_args_next what the next word would be.  Its
 * messages are one line without the command's name, which lab_cli_args_read puts first.
 */
#include "lab/cli/cli.h"

#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *const lab_cli_type_names[LAB_CLI_TYPE_COUNT] = {
    [LAB_CLI_FLAG] = "none",         [LAB_CLI_NUMBER] = "number",   [LAB_CLI_STRING] = "string",
    [LAB_CLI_EXERCISE] = "exercise", [LAB_CLI_CHAPTER] = "chapter", [LAB_CLI_COMMAND] = "command",
    [LAB_CLI_SOURCE] = "source",     [LAB_CLI_FILE] = "file",       [LAB_CLI_DIR] = "dir",
    [LAB_CLI_CHOICE] = "choice",
};

const char *const lab_cli_occurs_names[LAB_CLI_OCCURS_COUNT] = {
    [LAB_CLI_OPTIONAL] = "optional",
    [LAB_CLI_REQUIRED] = "required",
    [LAB_CLI_REPEATED] = "repeated",
    [LAB_CLI_ANY] = "any",
};

/* --- the declarations ------------------------------------------------------------ */

const lab_cli_param *
lab_cli_find_opt(const lab_cmd *cmd, const char *name)
{
    for (const lab_cli_param *p = cmd->opts; p && p->name; p++)
        if (!strcmp(p->name, name))
            return p;
    return NULL;
}

static size_t
count_args(const lab_cmd *cmd)
{
    size_t n = 0;

    while (cmd->args && cmd->args[n].name)
        n++;
    return n;
}

const lab_cli_param *
lab_cli_arg_at(const lab_cmd *cmd, size_t i)
{
    size_t n = count_args(cmd);

    if (i < n)
        return &cmd->args[i];
    if (n && cmd->args[n - 1].occurs >= LAB_CLI_REPEATED)
        return &cmd->args[n - 1];
    return NULL;
}

size_t
lab_cli_max_args(const lab_cmd *cmd)
{
    size_t n = count_args(cmd);

    return n && cmd->args[n - 1].occurs >= LAB_CLI_REPEATED ? SIZE_MAX : n;
}

/* --- words ------------------------------------------------------------------------- */

/* An option word: a dash and more, unless it reads as a negative number ("-3", "-.5"). */
static bool
is_option(const char *w)
{
    const char *d;

    if (w[0] != '-' || !w[1])
        return false;
    d = w + 1 + (w[1] == '.');
    return !(*d >= '0' && *d <= '9');
}

/* The option w names ("--seed", "--seed=3", "-s"), or NULL. */
static const lab_cli_param *
find_word(const lab_cmd *cmd, const char *w)
{
    size_t len = strcspn(w + 2, "=");

    for (const lab_cli_param *p = cmd->opts; p && p->name; p++) {
        if (w[1] == '-' ? strlen(p->name) == len && !strncmp(p->name, w + 2, len)
                        : p->short_name && p->short_name == w[1] && !w[2])
            return p;
    }
    return NULL;
}

/* Checks a value of p, an option (dashes "--") or a positional (dashes ""); a number
 * goes into *num. */
static int
check_value(const lab_cli_param *p, const char *dashes, const char *value, uint64_t *num,
            lab_err *err)
{
    lab_buf known = LAB_BUF_INIT;
    unsigned long long v;
    char *end;
    int rc;

    if (p->type == LAB_CLI_NUMBER) {
        errno = 0;
        v = strtoull(value, &end, 10);
        if (!(*value >= '0' && *value <= '9') || *end)
            return lab_err_set(err, LAB_EINVAL, _("%s%s: '%s' is not a number"), dashes, p->name,
                               value);
        if (errno == ERANGE || v < p->min || (p->max && v > p->max))
            return p->max ? lab_err_set(err, LAB_EINVAL, _("%s%s must be %llu to %llu, not '%s'"),
                                        dashes, p->name, (unsigned long long)p->min,
                                        (unsigned long long)p->max, value)
                          : lab_err_set(err, LAB_EINVAL, _("%s%s must be at least %llu, not '%s'"),
                                        dashes, p->name, (unsigned long long)p->min, value);
        *num = v;
    }
    if (p->type != LAB_CLI_CHOICE)
        return 0;
    for (size_t i = 0; p->choices[i]; i++)
        if (!strcmp(p->choices[i], value))
            return 0;
    for (size_t i = 0; p->choices[i]; i++)
        lab_buf_printf(&known, "%s%s", i ? ", " : "", p->choices[i]);
    rc = lab_err_set(err, LAB_EINVAL, _("%s%s: '%s' is not one of: %s"), dashes, p->name, value,
                     known.buf);
    lab_buf_release(&known);
    return rc;
}

/* "MESSAGE (usage: cudalab CMD ...)": a line that is wrong as a whole. */
static int
usage_fail(const lab_cmd *cmd, lab_err *err, const char *fmt, ...)
{
    lab_buf msg = LAB_BUF_INIT, usage = LAB_BUF_INIT;
    va_list ap;
    int rc;

    va_start(ap, fmt);
    lab_buf_vprintf(&msg, fmt, ap);
    va_end(ap);
    lab_cli_synopsis(cmd, &usage);
    rc = lab_err_set(err, LAB_EINVAL, _("%s (usage: %s)"), msg.buf, usage.buf);
    lab_buf_release(&msg);
    lab_buf_release(&usage);
    return rc;
}

/* --- the parser ---------------------------------------------------------------------- */

int
lab_cli_args_parse(const lab_cmd *cmd, int argc, char *const *argv, lab_cli_args *out, lab_err *err)
{
    lab_buf shown = LAB_BUF_INIT;
    bool options = true;
    int rc = 0;

    memset(out, 0, sizeof(*out));
    out->cmd = cmd;
    if (!(out->v = calloc((size_t)argc + 1, sizeof(*out->v))))
        return lab_err_set(err, LAB_ENOMEM, _("out of memory"));
    for (int i = 0; i < argc && rc == 0; i++) {
        lab_cli_word *word = &out->v[out->n];
        const char *w = argv[i], *eq;

        if (!options || !is_option(w)) {
            word->value = w;
            out->n++;
            out->npos++;
            continue;
        }
        if (!strcmp(w, "--")) {
            options = false;
            continue;
        }
        if (!strcmp(w, "--help") || !strcmp(w, "-h")) {
            out->help = true;
            break;
        }
        if (!(word->opt = find_word(cmd, w))) {
            rc = lab_err_set(err, LAB_EINVAL, _("unknown option '%.*s' (see: cudalab help %s)"),
                             (int)strcspn(w, "="), w, cmd->name);
            break;
        }
        eq = w[1] == '-' ? strchr(w, '=') : NULL;
        word->value = eq ? eq + 1 : NULL;
        out->n++;
        if (word->opt->type == LAB_CLI_FLAG) {
            if (eq)
                rc = lab_err_set(err, LAB_EINVAL, _("--%s takes no value"), word->opt->name);
            continue;
        }
        if (!eq && i + 1 < argc)
            word->value = argv[++i];
        if (!word->value) {
            lab_cli_param_value(word->opt, &shown);
            rc = lab_err_set(err, LAB_EINVAL, _("--%s needs a value (%s)"), word->opt->name,
                             shown.buf);
        } else {
            rc = check_value(word->opt, "--", word->value, &word->number, err);
        }
    }
    lab_buf_release(&shown);
    return rc;
}

int
lab_cli_args_check(lab_cli_args *a, lab_err *err)
{
    const lab_cmd *cmd = a->cmd;
    size_t k = 0, n = count_args(cmd);
    int rc;

    for (size_t i = 0; i < a->n; i++) {
        lab_cli_word *w = &a->v[i];
        if (w->opt)
            continue;
        if (!(w->arg = lab_cli_arg_at(cmd, k++)))
            return usage_fail(cmd, err, _("unexpected argument '%s'"), w->value);
        if ((rc = check_value(w->arg, "", w->value, &w->number, err)) < 0)
            return rc;
    }
    for (size_t j = k; j < n; j++)
        if (cmd->args[j].occurs == LAB_CLI_REQUIRED || cmd->args[j].occurs == LAB_CLI_REPEATED)
            return usage_fail(cmd, err, _("missing %s"), cmd->args[j].name);
    for (const lab_cli_param *p = cmd->opts; p && p->name; p++)
        if (p->occurs == LAB_CLI_REQUIRED && !lab_cli_args_has(a, p->name))
            return usage_fail(cmd, err, _("--%s is required"), p->name);
    return 0;
}

void
lab_cli_args_release(lab_cli_args *a)
{
    free(a->v);
    a->v = NULL;
    a->n = a->npos = 0;
}

int
lab_cli_args_read(const lab_cmd *cmd, int argc, char *const *argv, lab_cli_args *out)
{
    lab_err err = LAB_ERR_INIT;

    if (lab_cli_args_parse(cmd, argc, argv, out, &err) < 0 ||
        (!out->help && lab_cli_args_check(out, &err) < 0)) {
        fprintf(stderr, "cudalab %s: %s\n", cmd->name, err.msg);
        return LAB_EXIT_ERROR;
    }
    if (out->help)
        lab_cli_print_usage(cmd, stdout);
    return LAB_EXIT_OK;
}

void
lab_cli_args_next(const lab_cmd *cmd, int argc, char *const *argv, const lab_cli_param **opt_out,
                  size_t *pos_out)
{
    bool options = true;

    *opt_out = NULL;
    *pos_out = 0;
    for (int i = 0; i < argc; i++) {
        const lab_cli_param *opt;
        if (!options || !is_option(argv[i])) {
            ++*pos_out;
        } else if (!strcmp(argv[i], "--")) {
            options = false;
        } else if ((opt = find_word(cmd, argv[i])) && opt->type != LAB_CLI_FLAG &&
                   !strchr(argv[i], '=')) {
            if (++i == argc)
                *opt_out = opt;
        }
    }
}

/* --- reading a parsed line ------------------------------------------------------------ */

static const lab_cli_word *
last_given(const lab_cli_args *a, const char *name)
{
    const lab_cli_param *opt = lab_cli_find_opt(a->cmd, name);

    assert(opt); /* the command declares it */
    for (size_t i = a->n; i-- > 0;)
        if (a->v[i].opt == opt)
            return &a->v[i];
    return NULL;
}

static const lab_cli_word *
nth_positional(const lab_cli_args *a, size_t n)
{
    for (size_t i = 0; i < a->n; i++)
        if (!a->v[i].opt && n-- == 0)
            return &a->v[i];
    return NULL;
}

bool
lab_cli_args_has(const lab_cli_args *a, const char *name)
{
    return last_given(a, name) != NULL;
}

const char *
lab_cli_args_value(const lab_cli_args *a, const char *name)
{
    const lab_cli_word *w = last_given(a, name);

    return w ? w->value : NULL;
}

uint64_t
lab_cli_args_number(const lab_cli_args *a, const char *name, uint64_t dflt)
{
    const lab_cli_word *w = last_given(a, name);

    return w ? w->number : dflt;
}

const char *
lab_cli_args_pos(const lab_cli_args *a, size_t i)
{
    const lab_cli_word *w = nth_positional(a, i);

    return w ? w->value : NULL;
}

uint64_t
lab_cli_args_pos_number(const lab_cli_args *a, size_t i, uint64_t dflt)
{
    const lab_cli_word *w = nth_positional(a, i);

    return w ? w->number : dflt;
}
