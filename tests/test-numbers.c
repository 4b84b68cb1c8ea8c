/*
 * test-numbers.c - the table of the course's figures (lab/util/numbers.h): read from an INI
 * file with each section's source, GPU and date, every broken line refused with its file and
 * line, and texts that quote figures by name expanded, an unknown name refused with the text's
 * line.  The course's own table (docs/numbers.ini) must load too, and the grading constants it
 * quotes must be the ones the grader uses.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/grade/modelled.h"
#include "lab/grade/policy.h"
#include "lab/util/numbers.h"

static char dir[] = "/tmp/test-numbers-XXXXXX";

static void
make_dir(void)
{
    cr_assert_not_null(mkdtemp(dir));
}

static void
remove_dir(void)
{
    char cmd[256];

    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

/* text written to DIR/numbers.ini; its path */
static const char *
table(const char *text)
{
    static char path[512];
    FILE *f;

    snprintf(path, sizeof(path), "%s/numbers.ini", dir);
    cr_assert_not_null(f = fopen(path, "w"));
    fputs(text, f);
    fclose(f);
    return path;
}

static const char *const good = "; a comment\n"
                                "[h100.reduce]\n"
                                "about = the integer ladder\n"
                                "source = docs/design/gpu-facts.md\n"
                                "gpu = NVIDIA H100 80GB HBM3\n"
                                "date = 2026-11-20\n"
                                "neighbored.us = 217.6\n"
                                "launches = 4 194 304\n"
                                "overhead.us = 18-21\n"
                                "[notes.000]\n"
                                "source = note 000, 3.10.3\n"
                                "gpu = Tesla M2070\n"
                                "date = the notes\n"
                                "neighbored.us = 11722\n";

Test(numbers, a_table_with_its_sources, .init = make_dir, .fini = remove_dir)
{
    lab_numbers *n = NULL;
    lab_err err = LAB_ERR_INIT;
    const lab_number *f;
    double v;

    cr_assert_eq(lab_numbers_load(table(good), &n, &err), 0, "%s", err.msg);
    cr_assert_eq(lab_numbers_count(n), 4);
    cr_assert_str_eq(lab_numbers_at(n, 0)->key, "h100.reduce.launches", "sorted by key");
    cr_assert_not_null(f = lab_numbers_find(n, "h100.reduce.neighbored.us"));
    cr_expect_str_eq(f->value, "217.6");
    cr_expect_str_eq(f->source, "docs/design/gpu-facts.md");
    cr_expect_str_eq(f->gpu, "NVIDIA H100 80GB HBM3");
    cr_expect_str_eq(f->date, "2026-11-20");
    cr_expect_eq(f->line, 7);
    cr_assert_not_null(f = lab_numbers_find(n, "notes.000.neighbored.us"));
    cr_expect_str_eq(f->gpu, "Tesla M2070", "each figure has its own section's source");
    cr_expect_null(lab_numbers_find(n, "h100.reduce"), "a section is no figure");
    cr_expect_null(lab_numbers_find(n, "h100.reduce.source"), "nor is its source");
    cr_expect(lab_numbers_double(n, "h100.reduce.launches", &v) && v == 4194304,
              "digits grouped by spaces are one number");
    cr_expect(!lab_numbers_double(n, "h100.reduce.overhead.us", &v), "a range is not one number");
    cr_expect(!lab_numbers_double(n, "h100.reduce.nothing", &v));
    cr_expect_null(lab_numbers_find(NULL, "h100.reduce.launches"), "no table: nothing found");
    lab_numbers_free(n);
}

Test(numbers, broken_tables_name_the_line, .init = make_dir, .fini = remove_dir)
{
    static const struct {
        const char *text, *want;
    } cases[] = {
        { "x = 1\n", ":1: 'x' is outside a section" },
        { "[Bad]\nsource = s\n", ":2: section [Bad]: a name is lower-case" },
        { "[a]\nsource = s\ngpu = g\ndate = d\nNeighbored = 1\n",
          ":5: 'Neighbored': a figure's name" },
        { "[a]\nsource = s\ngpu = g\ndate = d\nx = about the same\n", ":5: 'x' has no figure" },
        { "[a]\nsource = s\ngpu = g\ndate = d\nx = {{a.y}} 1\n", ":5: 'x': a value cannot quote" },
        { "[a]\nsource = s\nsource = t\n", ":3: 'source' given twice" },
        { "[a]\nsource = s\ngpu = g\nx = 1\n", ":2: section [a] has no 'date'" },
        { "[a]\nsource = s\ngpu = g\ndate = d\nx = 1\n[b]\nsource = s\ngpu = g\ndate = d\n[a]\nx = "
          "2\n",
          ":11: 'a.x' is in the table twice" },
        { "[a]\nsource = s\ngpu = g\ndate = d\nthis is no key\n", ":5: not a line of an INI file" },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        lab_numbers *n = NULL;
        lab_err err = LAB_ERR_INIT;

        cr_expect_eq(lab_numbers_load(table(cases[i].text), &n, &err), LAB_EPARSE, "case %zu", i);
        cr_expect(strstr(err.msg, cases[i].want) != NULL, "case %zu: %s", i, err.msg);
        cr_expect_null(n);
    }
    lab_numbers *n = NULL;
    lab_err err = LAB_ERR_INIT;
    char missing[600];
    snprintf(missing, sizeof(missing), "%s/none.ini", dir);
    cr_expect_eq(lab_numbers_load(missing, &n, &err), LAB_ENOENT, "%s", err.msg);
}

/* the catalog's manifest values, as the catalog gives them */
static const char *
more(void *ctx, const char *key, char *buf, size_t size)
{
    cr_assert_str_eq(ctx, "catalog");
    if (strcmp(key, "reduction/unrolling2.min_speedup"))
        return NULL;
    snprintf(buf, size, "1.30");
    return buf;
}

Test(numbers, texts_quote_figures_by_name, .init = make_dir, .fini = remove_dir)
{
    lab_numbers *n = NULL;
    lab_buf out = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    const char *text =
        "The notes: {{notes.000.neighbored.us}} µs, the H100: "
        "{{h100.reduce.neighbored.us}} µs.\nNeeds {{reduction/unrolling2.min_speedup}}×.";

    cr_assert_eq(lab_numbers_load(table(good), &n, &err), 0, "%s", err.msg);
    cr_assert_eq(lab_numbers_expand(n, text, strlen(text), "task.md", more, "catalog", &out, &err),
                 0, "%s", err.msg);
    cr_expect_str_eq(out.buf, "The notes: 11722 µs, the H100: 217.6 µs.\nNeeds 1.30×.");
    cr_expect(lab_numbers_quoted(text, strlen(text)));
    cr_expect(!lab_numbers_quoted("no { figures } here", 19));

    static const struct {
        const char *text, *want;
    } bad[] = {
        { "line 1\nline 2 {{h100.reduce.nothing}}\n",
          "task.md:2: unknown figure 'h100.reduce.nothing' (not in docs/numbers.ini)" },
        { "{{reduction/unrolling4.min_speedup}}", "task.md:1: unknown figure" },
        { "a {{ b", "task.md:1: '{{' starts no figure's name" },
        { "a {{}} b", "task.md:1: '{{' starts no figure's name" },
        { "a {{h100.reduce\n.neighbored.us}}", "task.md:1: '{{' starts no figure's name" },
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        lab_buf_reset(&out);
        cr_expect_eq(lab_numbers_expand(n, bad[i].text, strlen(bad[i].text), "task.md", more,
                                        "catalog", &out, &err),
                     LAB_EPARSE, "case %zu", i);
        cr_expect(strstr(err.msg, bad[i].want) != NULL, "case %zu: %s", i, err.msg);
    }
    /* no table at all: a text without figures still passes through */
    lab_buf_reset(&out);
    cr_expect_eq(lab_numbers_expand(NULL, "plain", 5, "t", NULL, NULL, &out, &err), 0);
    cr_expect_str_eq(out.buf, "plain");
    lab_buf_release(&out);
    lab_numbers_free(n);
}

/* the course's own table, docs/numbers.ini of the tree under test */
static lab_numbers *
course_table(void)
{
    const char *root = getenv("CUDALAB_DATADIR_TEST");
    lab_numbers *n = NULL;
    lab_err err = LAB_ERR_INIT;
    char path[1024];

    cr_assert_not_null(root, "make test sets CUDALAB_DATADIR_TEST");
    snprintf(path, sizeof(path), "%s/docs/numbers.ini", root);
    cr_assert_eq(lab_numbers_load(path, &n, &err), 0, "%s", err.msg);
    return n;
}

Test(numbers, the_course_table_loads)
{
    lab_numbers *n = course_table();

    cr_expect_gt(lab_numbers_count(n), 100);
    lab_numbers_free(n);
}

/* the table's [policy] figures are the texts' words for the grader's constants: they must agree */
Test(numbers, the_policy_figures_are_the_graders)
{
    lab_numbers *n = course_table();
    double v;

    cr_assert(lab_numbers_double(n, "policy.choice_floor.pct", &v));
    cr_expect_float_eq(v, 100 * LAB_GRADE_CHOICE_FLOOR, 1e-9, "the tie floor the tasks quote");
    cr_assert(lab_numbers_double(n, "policy.modelled_slow.pct", &v));
    cr_expect_float_eq(v, 100 * LAB_MODELLED_CHOICE_SLOW, 1e-9, "the simulator's SLOW margin");
    lab_numbers_free(n);
}
