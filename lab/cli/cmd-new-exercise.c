/*
 * cmd-new-exercise.c - `cudalab new-exercise CHAPTER/NAME --family FAMILY
 * [--like CHAPTER/OTHER]`: scaffold an exercise (lab/catalog/scaffold.h) and
 * say what to fill in.
 */
#include "lab/cli/cli.h"
#include "lab/catalog/scaffold.h"

#include <assert.h>

/* The families' names, from the one list of them: the values --family takes. */
static const char *const family_names[] = {
#define LAB_FAMILY(id, name, ...) name,
#include "lab/catalog/families.def"
    NULL,
};

static int
new_exercise_run(lab_cli *cli, const lab_cli_args *args)
{
    const char *id = lab_cli_args_pos(args, 0), *like = lab_cli_args_value(args, "like");
    const lab_family *fam = lab_family_find(lab_cli_args_value(args, "family"));
    lab_strvec created = LAB_STRVEC_INIT;
    lab_err err = LAB_ERR_INIT;

    assert(fam); /* the parser took only the names of family_names */
    if (lab_scaffold_exercise(lab_datadir(cli->lab), lab_catalog_of(cli->lab), id, fam, like,
                              &created, &err) < 0) {
        lab_strvec_release(&created);
        return lab_cli_error(_("new-exercise: %s"), err.msg);
    }
    printf(_("created %s:\n"), id);
    for (size_t i = 0; i < created.n; i++)
        printf("  %s\n", created.v[i]);
    printf(_("now fill in:\n"
             "  exercise.ini   the title, kernel, baseline, sizes and thresholds marked TODO\n"
             "  task.md        what to do; hints.md: one '## ' section per hint\n"
             "  starter.cu     what the student starts from (it must not pass)\n"
             "  solutions/     the reference (it must pass); same kernel name as the starter\n"
             "  examples/      wrong/ (3 or more) and cheat/ (2 or more) submissions, each\n"
             "                 starting with '// expect: VERDICT (why)'\n"
             "then run: cudalab check-exercise %s\n"
             "translations (optional): beside each text file, the language before the extension\n"
             "  (task.ko.md, hints.zh_CN.md; exercise.ko.ini holds [exercise] and title only),\n"
             "  first line '<!-- translation of task.md @ HASH -->' ('; translation of\n"
             "  exercise.ini @ HASH' in INI), HASH = `sha256sum task.md | cut -c1-12`;\n"
             "  cudalab check-exercise --translations %s checks them (docs/design/i18n.md)\n"),
           id, id);
    lab_strvec_release(&created);
    return LAB_EXIT_OK;
}

/* `cudalab help new-exercise`: how a translation is added, beside the English files. */
static void
new_exercise_more_help(FILE *fp)
{
    fputs(_("\ntranslations:\n"
            "  A translation sits beside its English file, the language before the extension:\n"
            "  task.ko.md, hints.zh_CN.md, questions.ko.ini, chapter.zh_CN.ini, exercise.ko.ini\n"
            "  (INI translations hold the same sections and only the text keys: title; prompt,\n"
            "  explain, choices). Its first line names the English revision it follows:\n"
            "    <!-- translation of task.md @ HASH -->      (Markdown)\n"
            "    ; translation of exercise.ini @ HASH       (INI)\n"
            "  with HASH from `sha256sum task.md | cut -c1-12`. Code blocks and '## ' hint\n"
            "  headings stay as in English. A missing or stale translation shows English;\n"
            "  `cudalab check-exercise --translations ID` reports both.\n"),
          fp);
}

static const lab_cli_param args[] = {
    LAB_CLI_ARG("CHAPTER/NAME", LAB_CLI_STRING, LAB_CLI_REQUIRED, "the new id, in a chapter"),
    LAB_CLI_END,
};
static const lab_cli_param opts[] = {
    { .name = "family",
      .type = LAB_CLI_CHOICE,
      .metavar = "FAMILY",
      .occurs = LAB_CLI_REQUIRED,
      .choices = family_names,
      .help = N_("the kernel's signature, as the drivers know it") },
    LAB_CLI_OPT_VALUE("like", LAB_CLI_EXERCISE, "CHAPTER/OTHER",
                      "copy the manifest, the starter and the solution from this exercise"),
    LAB_CLI_END,
};

const lab_cmd lab_cmd_new_exercise = {
    .name = "new-exercise",
    .help = N_("scaffold a new exercise: manifest, task, starter, solution, examples"),
    .args = args,
    .opts = opts,
    .group = LAB_CLI_TEACH,
    .run = new_exercise_run,
    .more_help = new_exercise_more_help,
};
