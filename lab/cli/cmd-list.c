/*
 * cmd-list.c - `cudalab list [--json]`: chapters and exercises with the
 * learner's status from the progress store, in columns, and the total progress.
 */
#include "lab/cli/cli.h"
#include "lab/report/progress.h"
#include "lab/util/textwidth.h"

#include <cJSON.h>
#include <stdio.h>
#include <string.h>

/* "not started", "passed" or "attempted": the status in --json. */
static const char *
status_word(const lab_progress *p, bool known)
{
    if (!known)
        return "unknown (no progress store)";
    if (p->attempts == 0)
        return "not started";
    return p->passed ? "passed" : "attempted";
}

/* One exercise id a line, for shell completion: no store, no status. */
static int
print_ids(const lab_catalog *cat)
{
    for (size_t i = 0; i < lab_catalog_exercise_count(cat); i++)
        puts(lab_catalog_exercise(cat, i)->id);
    return LAB_EXIT_OK;
}

/* The chapter's broken exercises, each with why: a manifest to fix, not a step to take. */
static void
print_broken(const lab_catalog *cat, const lab_chapter *ch)
{
    for (size_t i = 0; i < lab_catalog_broken_count(cat); i++) {
        const lab_broken_exercise *b = lab_catalog_broken(cat, i);
        if (!strcmp(b->chapter, ch->id))
            printf(_("  %-30s broken: %s\n"), b->id, b->reason);
    }
}

/* The columns of the listing: the longest id and the longest title, the titles narrower where
 * the terminal is, so that every status starts in one column. */
typedef struct columns {
    int id;
    int title;
} columns;

/* The room a status needs at the least: "attempted, last WRONG". */
#define STATUS_MIN 22

static columns
columns_for(const lab_catalog *cat, int width)
{
    columns c = { 0, 0 };

    for (size_t i = 0; i < lab_catalog_exercise_count(cat); i++) {
        const lab_exercise *ex = lab_catalog_exercise(cat, i);
        c.id = (int)strlen(ex->id) > c.id ? (int)strlen(ex->id) : c.id;
        int title = (int)lab_text_widths(ex->local_title);
        c.title = title > c.title ? title : c.title;
    }
    if (width && 2 + c.id + 1 + c.title + 1 + STATUS_MIN > width)
        c.title = width - (2 + c.id + 1 + 1 + STATUS_MIN);
    if (c.title < 12)
        c.title = 12;
    return c;
}

/* "  id  title  status": a title too long for its column ends in "...", columns counted in
 * display width (a Korean or Chinese title's characters take two). */
static void
print_row(const columns *c, const lab_exercise *ex, const lab_progress *p, bool known)
{
    lab_buf title = LAB_BUF_INIT;
    char status[128];

    if (known)
        lab_progress_text(p, status, sizeof(status));
    else
        snprintf(status, sizeof(status), "%s", status_word(p, false));
    lab_text_fit(&title, ex->local_title, (size_t)c->title);
    printf("  %-*s %s%*s %s\n", c->id, ex->id, title.buf,
           c->title - (int)lab_text_widths(title.buf), "", status);
    lab_buf_release(&title);
}

static cJSON *
exercise_json(const lab_exercise *ex, const lab_progress *p, bool known)
{
    cJSON *o = cJSON_CreateObject();

    cJSON_AddStringToObject(o, "id", ex->id);
    cJSON_AddStringToObject(o, "chapter", ex->chapter);
    cJSON_AddStringToObject(o, "title", ex->title);
    cJSON_AddStringToObject(o, "kind", ex->kind == LAB_KIND_HOST ? "host" : "device");
    cJSON_AddStringToObject(o, "status", status_word(p, known));
    cJSON_AddNumberToObject(o, "attempts", p->attempts);
    cJSON_AddStringToObject(o, "last_verdict", p->last_verdict);
    cJSON_AddNumberToObject(o, "best_speedup", p->best_speedup);
    cJSON_AddNumberToObject(o, "best_fraction", p->best_fraction);
    return o;
}

static int
list_run(lab_cli *cli, const lab_cli_args *args)
{
    const lab_catalog *cat = lab_catalog_of(cli->lab);
    columns cols = columns_for(cat, lab_cli_width());
    int passed = 0, points = 0, max_points = 0;
    lab_err store_err = LAB_ERR_INIT;
    lab_store *st = NULL;
    cJSON *root = NULL, *arr = NULL;
    char total[128];

    cli->json = lab_cli_args_has(args, "json");
    if (lab_cli_args_has(args, "ids"))
        return print_ids(cat);
    /* a store that cannot be read leaves the catalog to list, then says why (exit 2) */
    if (lab_store_of(cli->lab, &st, &store_err) < 0)
        st = NULL;
    if (cli->json) {
        root = cJSON_CreateObject();
        arr = cJSON_AddArrayToObject(root, "exercises");
    }
    for (size_t c = 0; c < lab_catalog_chapter_count(cat); c++) {
        const lab_chapter *ch = lab_catalog_chapter(cat, c);
        if (!cli->json)
            printf("%s%s%s  (%s)\n", lab_cli_sgr(cli, "1"), ch->local_title, lab_cli_reset(cli),
                   ch->id);
        for (size_t i = 0; i < ch->nexercises; i++) {
            const lab_exercise *ex = ch->exercises[i];
            lab_progress p = { 0 };
            if (st && lab_store_progress(st, ex->id, &p, &store_err) < 0)
                st = NULL;
            passed += p.passed;
            points += p.best_points;
            max_points += ex->points;
            if (cli->json)
                cJSON_AddItemToArray(arr, exercise_json(ex, &p, st != NULL));
            else
                print_row(&cols, ex, &p, st != NULL);
        }
        if (!cli->json)
            print_broken(cat, ch);
    }
    if (cli->json) {
        cJSON *problems = cJSON_AddArrayToObject(root, "problems");
        cJSON *broken = cJSON_AddArrayToObject(root, "broken");
        for (size_t i = 0; i < lab_catalog_broken_count(cat); i++) {
            const lab_broken_exercise *b = lab_catalog_broken(cat, i);
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "id", b->id);
            cJSON_AddStringToObject(o, "chapter", b->chapter);
            cJSON_AddStringToObject(o, "reason", b->reason);
            cJSON_AddItemToArray(broken, o);
        }
        for (size_t i = 0; i < lab_catalog_problem_count(cat); i++)
            cJSON_AddItemToArray(problems, cJSON_CreateString(lab_catalog_problem(cat, i)));
        lab_cli_print_json(root);
    } else {
        if (st) {
            lab_progress_total_text(passed, lab_catalog_exercise_count(cat), points, max_points,
                                    total, sizeof(total));
            printf("\n%s\n", total);
        }
        for (size_t i = 0; i < lab_catalog_problem_count(cat); i++)
            fprintf(stderr, "%s\n", lab_catalog_problem(cat, i));
    }
    if (store_err.code < 0) {
        lab_cli_error(_("progress not shown: %s"), store_err.msg);
        fprintf(stderr, _("fix: %s\n"), _(LAB_STORE_FIX));
        return LAB_EXIT_ERROR;
    }
    return LAB_EXIT_OK;
}

static const lab_cli_param opts[] = {
    LAB_CLI_OPT("json", "the list as JSON, with each exercise's progress"),
    LAB_CLI_OPT("ids", "only the exercise ids, one a line (for completion)"),
    LAB_CLI_END,
};

const lab_cmd lab_cmd_list = {
    .name = "list",
    .help = N_("list the chapters and exercises with your progress"),
    .opts = opts,
    .run = list_run,
};
