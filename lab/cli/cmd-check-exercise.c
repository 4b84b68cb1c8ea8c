/*
 * cmd-check-exercise.c - `cudalab check-exercise EXERCISE... | --all`: the
 * author's check of an exercise (lab/grade/excheck.h); every problem as
 * "file:line: message", then one summary line.  Exit 0 when nothing failed.
 * Translations (lab/catalog/trcheck.h): a broken one fails; a missing or stale one is a
 * warning, or fails with --strict-translations; --translations checks them alone.
 */
#include "lab/cli/cli.h"
#include "lab/grade/excheck.h"

/* ", translations (ko, zh_CN): 0 missing, 0 stale" when the tree has any. */
static void
print_translations(const lab_excheck *c)
{
    lab_buf langs = LAB_BUF_INIT;

    if (!c->tr.languages.n)
        return;
    for (size_t i = 0; i < c->tr.languages.n; i++)
        lab_buf_printf(&langs, "%s%s", i ? ", " : "", c->tr.languages.v[i]);
    printf(_(", translations (%s): %d missing, %d stale"), langs.len ? langs.buf : "",
           c->translations_missing, c->translations_stale);
    lab_buf_release(&langs);
}

static int
check_exercise_run(lab_cli *cli, const lab_cli_args *args)
{
    lab_err err = LAB_ERR_INIT;
    lab_excheck c;
    bool all = lab_cli_args_has(args, "all");
    int rc = 0;

    if (all == (args->npos > 0))
        return lab_cli_usage_error(args->cmd, _("give either EXERCISE... or --all"));
    lab_excheck_init(&c);
    c.translations_only = lab_cli_args_has(args, "translations");
    c.strict_translations = lab_cli_args_has(args, "strict-translations");
    if (all)
        rc = lab_excheck_run_all(cli->lab, NULL, &c, &err);
    for (size_t i = 0; rc == 0 && !all && i < args->npos; i++)
        rc = lab_excheck_run(cli->lab, lab_cli_args_pos(args, i), NULL, &c, &err);
    for (size_t i = 0; i < c.notes.n; i++)
        printf("%s\n", c.notes.v[i]);
    for (size_t i = 0; i < c.problems.n; i++)
        printf("%s\n", c.problems.v[i]);
    if (rc < 0) {
        lab_excheck_release(&c);
        return lab_cli_error(_("check-exercise: %s"), err.msg);
    }
    printf(_("check-exercise: %d checks, %d examples, %d failed"), c.checks, c.examples, c.failed);
    if (c.modelled)
        printf(_(", %d speed verdicts modelled, not measured"), c.modelled);
    print_translations(&c);
    if (c.unchecked)
        printf(_(", %d not run on a GPU: speed was not checked (nor correctness, but on the "
                 "simulator)"),
               c.unchecked);
    printf("\n");
    rc = c.failed ? LAB_EXIT_VERDICT : LAB_EXIT_OK;
    lab_excheck_release(&c);
    return rc;
}

static const lab_cli_param args[] = {
    LAB_CLI_ARG("EXERCISE", LAB_CLI_EXERCISE, LAB_CLI_ANY, "an exercise to check (or --all)"),
    LAB_CLI_END,
};
static const lab_cli_param opts[] = {
    LAB_CLI_OPT("all", "check every exercise of the catalog"),
    LAB_CLI_OPT("translations", "check only the translations of the text files (grade nothing)"),
    LAB_CLI_OPT("strict-translations",
                "a missing or stale translation fails the check (by default a warning)"),
    LAB_CLI_END,
};

const lab_cmd lab_cmd_check_exercise = {
    .name = "check-exercise",
    .help =
        N_("validate an exercise: manifest, files, solution passes, starter does not, examples"),
    .args = args,
    .opts = opts,
    .group = LAB_CLI_TEACH,
    .run = check_exercise_run,
};
