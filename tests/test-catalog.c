/*
 * test-catalog.c - lab_catalog_load against catalogs written into a fresh
 * temp dir: a valid two-chapter catalog, one broken manifest per case beside a
 * valid sibling, chapter files, sorting, lookups and the load's own failure.
 */
#include "lab/catalog/catalog.h"
#include "lab/util/err.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[PATH_MAX]; /* the temp datadir of this test (each test runs in its own process) */

static void
setup(void)
{
    const char *tmp = getenv("TMPDIR");
    int n = snprintf(root, sizeof(root), "%s/test-catalog-XXXXXX", tmp && *tmp ? tmp : "/tmp");

    cr_assert(n > 0 && (size_t)n < sizeof(root));
    cr_assert_not_null(mkdtemp(root), "mkdtemp: %s", strerror(errno));
}

static int
remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static void
teardown(void)
{
    if (root[0])
        nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

TestSuite(catalog, .init = setup, .fini = teardown);

/* root/rel, checked for truncation */
static const char *
at(const char *rel)
{
    static char path[PATH_MAX];
    int n = snprintf(path, sizeof(path), "%s/%s", root, rel);

    cr_assert(n > 0 && (size_t)n < sizeof(path));
    return path;
}

static void
write_file(const char *rel, const char *text)
{
    char path[PATH_MAX];
    FILE *fp;

    snprintf(path, sizeof(path), "%s", at(rel));
    for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
        *p = '\0';
        cr_assert(mkdir(path, 0755) == 0 || errno == EEXIST, "mkdir %s: %s", path, strerror(errno));
        *p = '/';
    }
    cr_assert_not_null(fp = fopen(path, "w"), "fopen %s: %s", path, strerror(errno));
    cr_assert(fputs(text, fp) >= 0);
    cr_assert(fclose(fp) == 0);
}

static void
make_dir(const char *rel)
{
    cr_assert(mkdir(at(rel), 0755) == 0, "mkdir %s: %s", rel, strerror(errno));
}

/* An exercise's manifest and the files it names by default. */
static void
write_exercise(const char *id, const char *ini)
{
    char rel[PATH_MAX];

    snprintf(rel, sizeof(rel), "exercises/%s/exercise.ini", id);
    write_file(rel, ini);
    snprintf(rel, sizeof(rel), "exercises/%s/starter.cu", id);
    write_file(rel, "__global__ void k(int *a) {}\n");
    snprintf(rel, sizeof(rel), "exercises/%s/task.md", id);
    write_file(rel, "# Task\n");
    snprintf(rel, sizeof(rel), "solutions/%s.cu", id);
    write_file(rel, "__global__ void k(int *a) {}\n");
}

/* A valid manifest for id in chapter ch with the given order. */
static void
write_simple(const char *ch, const char *name, int order)
{
    char id[256], ini[1024];

    snprintf(id, sizeof(id), "%s/%s", ch, name);
    snprintf(ini, sizeof(ini),
             "[exercise]\nid = %s\nchapter = %s\norder = %d\ntitle = %s\nkernel = k\n"
             "family = reduce-int\nsolution = solutions/%s.cu\nbaseline = cpu\nsizes = 1000\n",
             id, ch, order, name, id);
    write_exercise(id, ini);
}

static void
write_chapter(const char *ch, const char *title, int order)
{
    char rel[PATH_MAX], ini[512];

    snprintf(rel, sizeof(rel), "exercises/%s/chapter.ini", ch);
    snprintf(ini, sizeof(ini), "[chapter]\ntitle = %s\norder = %d\n", title, order);
    write_file(rel, ini);
}

static lab_catalog *
load(void)
{
    lab_err err = LAB_ERR_INIT;
    lab_catalog *cat = NULL;
    int rc = lab_catalog_load(root, &cat, &err);

    cr_assert_eq(rc, 0, "lab_catalog_load: %s", err.msg);
    cr_assert_not_null(cat);
    return cat;
}

/* A problem line as the catalog writes it: "<root>/rel:line: msg". */
static const char *
problem_at(const char *rel, unsigned line, const char *msg)
{
    static char text[PATH_MAX + 512];
    int n = snprintf(text, sizeof(text), "%s/%s:%u: %s", root, rel, line, msg);

    cr_assert(n > 0 && (size_t)n < sizeof(text));
    return text;
}

static void
assert_problems(const lab_catalog *cat, size_t n)
{
    size_t got = lab_catalog_problem_count(cat);

    for (size_t i = 0; got != n && i < got; i++)
        cr_log_error("problem %zu: %s", i, lab_catalog_problem(cat, i));
    cr_assert_eq(got, n, "expected %zu problems, got %zu", n, got);
}

/* --- a valid catalog ------------------------------------------------------ */

static void
write_valid_catalog(void)
{
    write_file("exercises/warps/chapter.ini", "[chapter]\n"
                                              "title = Warp execution\n"
                                              "order = 1\n");
    write_file("docs/warps.md", "# Warps\n");
    write_file("exercises/reduction/chapter.ini", "; the reduction ladder\n"
                                                  "[chapter]\n"
                                                  "title = Parallel reduction\n"
                                                  "order = 2\n"
                                                  "text = docs/ladder.md\n");
    write_file("docs/ladder.md", "# Ladder\n");

    write_exercise("warps/divergence", "[exercise]\n"
                                       "id = warps/divergence\n"
                                       "chapter = warps\n"
                                       "title = Warp divergence\n"
                                       "kernel = mathKernel1\n"
                                       "family = reduce-float\n"
                                       "solution = solutions/warps/divergence.cu\n"
                                       "baseline = cpu\n"
                                       "sizes = 64\n");
    write_exercise("reduction/neighbored", "[exercise]\n"
                                           "id = reduction/neighbored\n"
                                           "chapter = reduction\n"
                                           "order = 1\n"
                                           "title = Neighbored pairs\n"
                                           "kernel = reduceNeighbored\n"
                                           "family = reduce-int\n"
                                           "solution = solutions/reduction/neighbored.cu\n"
                                           "baseline = cpu\n"
                                           "sizes = 1, 1000, 1<<24\n");
    write_exercise("reduction/unrolled",
                   "# a comment\n"
                   "[exercise]\n"
                   "id = reduction/unrolled\n"
                   "chapter = reduction\n"
                   "order = 2\n"
                   "title = Unrolling 8\n"
                   "kernel = reduceUnrolling8\n"
                   "family = reduce-int\n"
                   "starter = mine.cu\n"
                   "solution = solutions/reduction/unrolled.cu\n"
                   "baseline = reduction/neighbored\n"
                   "sizes = 1000 , 1 << 20,1<<24\n"
                   "timing_sizes = 1<<20, 1<<24\n"
                   "block = 512\n"
                   "unroll = 8\n"
                   "build_timeout = 30\n"
                   "run_timeout = 2.5\n"
                   "min_speedup = 1.5\n"
                   "min_fraction_of_reference = 0.85\n"
                   "points = 20\n"
                   "constraints = forbid atomics, require   warp-sync|shfl.sync\n"
                   "instantiate = template __global__ void k<8>(int *);\n");
    write_file("exercises/reduction/unrolled/mine.cu", "\n");
    write_file("exercises/reduction/unrolled/hints.md", "# Hints\n"
                                                        "\n"
                                                        "Read these one at a time.\n"
                                                        "\n"
                                                        "## Where to start\n"
                                                        "\n"
                                                        "  Each thread adds 8 elements.  \n"
                                                        "\n"
                                                        "## The tree\n"
                                                        "Then halve the stride:\n"
                                                        "```\n"
                                                        "## not a heading\n"
                                                        "```\n"
                                                        "##\n"
                                                        "\n"
                                                        "## Last\n"
                                                        "Unroll the last warp.\n");
    write_file("exercises/reduction/neighbored/hints.md", "\n  Just one hint.\n\n");
}

Test(catalog, valid_catalog_fields)
{
    lab_catalog *cat;
    const lab_chapter *ch;
    const lab_exercise *ex;

    write_valid_catalog();
    cat = load();
    assert_problems(cat, 0);
    cr_assert_eq(lab_catalog_chapter_count(cat), 2);
    cr_assert_eq(lab_catalog_exercise_count(cat), 3);

    ch = lab_catalog_chapter(cat, 0);
    cr_assert_str_eq(ch->id, "warps");
    cr_assert_str_eq(ch->title, "Warp execution");
    cr_assert_eq(ch->order, 1);
    cr_assert_str_eq(ch->text, at("docs/warps.md"));
    cr_assert_eq(ch->nexercises, 1);
    cr_assert_str_eq(ch->exercises[0]->id, "warps/divergence");

    ch = lab_catalog_chapter(cat, 1);
    cr_assert_str_eq(ch->id, "reduction");
    cr_assert_str_eq(ch->title, "Parallel reduction");
    cr_assert_eq(ch->order, 2);
    cr_assert_str_eq(ch->text, at("docs/ladder.md"));
    cr_assert_eq(ch->nexercises, 2);
    cr_assert_str_eq(ch->exercises[0]->id, "reduction/neighbored");
    cr_assert_str_eq(ch->exercises[1]->id, "reduction/unrolled");
    cr_assert_null(lab_catalog_chapter(cat, 2));

    /* defaults */
    ex = lab_catalog_find(cat, "reduction/neighbored");
    cr_assert_not_null(ex);
    cr_assert_str_eq(ex->chapter, "reduction");
    cr_assert_str_eq(ex->name, "neighbored");
    cr_assert_eq(ex->order, 1);
    cr_assert_str_eq(ex->title, "Neighbored pairs");
    cr_assert_str_eq(ex->kernel, "reduceNeighbored");
    cr_assert_str_eq(ex->family, "reduce-int");
    cr_assert_str_eq(ex->dir, at("exercises/reduction/neighbored"));
    cr_assert_str_eq(ex->manifest, at("exercises/reduction/neighbored/exercise.ini"));
    cr_assert_str_eq(ex->starter, at("exercises/reduction/neighbored/starter.cu"));
    cr_assert_str_eq(ex->solution, at("solutions/reduction/neighbored.cu"));
    cr_assert_str_eq(ex->task, at("exercises/reduction/neighbored/task.md"));
    cr_assert_str_eq(ex->baseline, "cpu");
    cr_assert_eq(ex->nsizes, 3);
    cr_assert_eq(ex->sizes[0], 1);
    cr_assert_eq(ex->sizes[1], 1000);
    cr_assert_eq(ex->sizes[2], 1UL << 24);
    cr_assert_eq(ex->ntiming_sizes, 1);
    cr_assert_eq(ex->timing_sizes[0], 1UL << 24);
    cr_assert_eq(ex->block, 256);
    cr_assert_eq(ex->nblocks, 1);
    cr_assert_eq(ex->blocks[0].x, 256);
    cr_assert_eq(ex->blocks[0].y, 1);
    cr_assert_eq(ex->blocks[0].z, 1);
    cr_assert_eq(ex->unroll, 1);
    cr_assert_float_eq(ex->build_timeout_s, 120, 1e-12);
    cr_assert_float_eq(ex->run_timeout_s, 60, 1e-12);
    cr_assert_float_eq(ex->min_speedup, 1.10, 1e-12);
    cr_assert_float_eq(ex->min_fraction_of_reference, 0, 1e-12);
    cr_assert_eq(ex->points, 10);
    cr_assert_eq(ex->nconstraints, 0);
    cr_assert_null(ex->instantiate);
    cr_assert_eq(ex->nhints, 1, "a file without '## ' is one hint");
    cr_assert_str_eq(ex->hints[0], "Just one hint.");

    /* every key set */
    ex = lab_catalog_find(cat, "reduction/unrolled");
    cr_assert_not_null(ex);
    cr_assert_eq(ex->order, 2);
    cr_assert_str_eq(ex->starter, at("exercises/reduction/unrolled/mine.cu"));
    cr_assert_str_eq(ex->baseline, "reduction/neighbored");
    cr_assert_eq(ex->nsizes, 3);
    cr_assert_eq(ex->sizes[0], 1000);
    cr_assert_eq(ex->sizes[1], 1UL << 20);
    cr_assert_eq(ex->sizes[2], 1UL << 24);
    cr_assert_eq(ex->ntiming_sizes, 2);
    cr_assert_eq(ex->timing_sizes[0], 1UL << 20);
    cr_assert_eq(ex->timing_sizes[1], 1UL << 24);
    cr_assert_eq(ex->block, 512);
    cr_assert_eq(ex->unroll, 8);
    cr_assert_float_eq(ex->build_timeout_s, 30, 1e-12);
    cr_assert_float_eq(ex->run_timeout_s, 2.5, 1e-12);
    cr_assert_float_eq(ex->min_speedup, 1.5, 1e-12);
    cr_assert_float_eq(ex->min_fraction_of_reference, 0.85, 1e-12);
    cr_assert_eq(ex->points, 20);
    cr_assert_eq(ex->nconstraints, 2);
    cr_assert_str_eq(ex->constraints[0], "forbid atomics");
    cr_assert_str_eq(ex->constraints[1], "require warp-sync|shfl.sync");
    cr_assert_str_eq(ex->instantiate, "template __global__ void k<8>(int *);");
    cr_assert_eq(ex->nhints, 3);
    cr_assert_str_eq(ex->hints[0], "Each thread adds 8 elements.");
    cr_assert_str_eq(ex->hints[1], "Then halve the stride:\n```\n## not a heading\n```");
    cr_assert_str_eq(ex->hints[2], "Unroll the last warp.");

    ex = lab_catalog_find(cat, "warps/divergence");
    cr_assert_not_null(ex);
    cr_assert_eq(ex->order, 0);
    cr_assert_eq(ex->nhints, 0);
    cr_assert_null(ex->hints);
    lab_catalog_free(cat);
}

Test(catalog, find_by_id)
{
    lab_catalog *cat;

    write_valid_catalog();
    cat = load();
    cr_assert_str_eq(lab_catalog_find(cat, "warps/divergence")->title, "Warp divergence");
    cr_assert_eq(lab_catalog_find(cat, "reduction/unrolled"), lab_catalog_exercise(cat, 2));
    cr_assert_null(lab_catalog_find(cat, "reduction/nope"));
    cr_assert_null(lab_catalog_find(cat, "reduction"));
    cr_assert_null(lab_catalog_find(cat, ""));
    cr_assert_null(lab_catalog_find(cat, NULL));
    cr_assert_null(lab_catalog_exercise(cat, 3));
    lab_catalog_free(cat);
}

Test(catalog, sorting)
{
    static const char *const want[] = { "b/y", "b/z", "b/x", "c/w", "a/v", "d/u" };
    static const char *const chapters[] = { "b", "c", "a", "d" };
    lab_catalog *cat;

    write_chapter("a", "A", 2);
    write_chapter("b", "B", 1);
    write_chapter("c", "C", 1); /* ties with b: by id */
    make_dir("exercises/d");    /* no chapter.ini: last */
    write_simple("a", "v", 0);
    write_simple("b", "x", 2);
    write_simple("b", "y", 1);
    write_simple("b", "z", 1); /* ties with y: by id */
    write_simple("c", "w", -5);
    write_simple("d", "u", 0);

    cat = load();
    assert_problems(cat, 1);
    cr_assert_str_eq(lab_catalog_problem(cat, 0),
                     problem_at("exercises/d", 0, "missing chapter.ini"));
    cr_assert_eq(lab_catalog_chapter_count(cat), ARRAY_SIZE(chapters));
    for (size_t i = 0; i < ARRAY_SIZE(chapters); i++)
        cr_assert_str_eq(lab_catalog_chapter(cat, i)->id, chapters[i]);
    cr_assert_eq(lab_catalog_exercise_count(cat), ARRAY_SIZE(want));
    for (size_t i = 0; i < ARRAY_SIZE(want); i++)
        cr_assert_str_eq(lab_catalog_exercise(cat, i)->id, want[i], "exercise %zu", i);

    /* each chapter's list is sorted the same way */
    cr_assert_eq(lab_catalog_chapter(cat, 0)->nexercises, 3);
    cr_assert_str_eq(lab_catalog_chapter(cat, 0)->exercises[0]->id, "b/y");
    cr_assert_str_eq(lab_catalog_chapter(cat, 0)->exercises[1]->id, "b/z");
    cr_assert_str_eq(lab_catalog_chapter(cat, 0)->exercises[2]->id, "b/x");
    cr_assert_eq(lab_catalog_chapter(cat, 3)->nexercises, 1);

    /* the chapter without chapter.ini */
    cr_assert_str_eq(lab_catalog_chapter(cat, 3)->title, "d");
    cr_assert_eq(lab_catalog_chapter(cat, 3)->order, INT_MAX);
    cr_assert_null(lab_catalog_chapter(cat, 3)->text);
    lab_catalog_free(cat);
}

Test(catalog, missing_exercises_dir)
{
    lab_err err = LAB_ERR_INIT;
    lab_catalog *cat = (lab_catalog *)&err; /* must be overwritten */
    int rc;

    rc = lab_catalog_load(root, &cat, &err);
    cr_assert_lt(rc, 0);
    cr_assert_eq(err.code, rc);
    cr_assert_eq(rc, LAB_ENOENT);
    cr_assert_null(cat);
    cr_assert_not_null(strstr(err.msg, at("exercises")), "message: %s", err.msg);
}

Test(catalog, empty_exercises_dir)
{
    lab_catalog *cat;

    make_dir("exercises");
    cat = load();
    cr_assert_eq(lab_catalog_chapter_count(cat), 0);
    cr_assert_eq(lab_catalog_exercise_count(cat), 0);
    assert_problems(cat, 0);
    cr_assert_null(lab_catalog_problem(cat, 0));
    lab_catalog_free(cat);
}

Test(catalog, broken_chapter_ini_keeps_defaults)
{
    lab_catalog *cat;
    const lab_chapter *ch;

    write_file("exercises/ch/chapter.ini", "[chapter]\n"
                                           "title = Chapter\n"
                                           "order = 3\n"
                                           "colour = red\n"
                                           "text = docs/none.md\n");
    write_file("docs/ch.md", "# ch\n");
    write_simple("ch", "a", 0);

    cat = load();
    assert_problems(cat, 2);
    cr_assert_str_eq(lab_catalog_problem(cat, 0),
                     problem_at("exercises/ch/chapter.ini", 4, "unknown key 'colour'"));
    cr_assert_str_eq(
        lab_catalog_problem(cat, 1),
        problem_at("exercises/ch/chapter.ini", 5, "'text': 'docs/none.md' does not exist"));
    ch = lab_catalog_chapter(cat, 0);
    cr_assert_str_eq(ch->title, "ch");
    cr_assert_eq(ch->order, INT_MAX);
    cr_assert_str_eq(ch->text, at("docs/ch.md"), "the default text still applies");
    cr_assert_eq(ch->nexercises, 1);
    lab_catalog_free(cat);
}

Test(catalog, chapter_defaults)
{
    lab_catalog *cat;
    const lab_chapter *ch;

    write_file("exercises/ch/chapter.ini", "[chapter]\n");
    cat = load();
    assert_problems(cat, 0);
    ch = lab_catalog_chapter(cat, 0);
    cr_assert_str_eq(ch->title, "ch");
    cr_assert_eq(ch->order, 0);
    cr_assert_null(ch->text, "docs/ch.md does not exist");
    cr_assert_eq(ch->nexercises, 0);
    cr_assert_null(ch->exercises);
    lab_catalog_free(cat);
}

Test(catalog, directory_without_manifest)
{
    lab_catalog *cat;

    write_chapter("ch", "Chapter", 1);
    write_simple("ch", "good", 0);
    make_dir("exercises/ch/empty");
    write_file("exercises/ch/README.md", "not an exercise\n");
    make_dir("exercises/ch/.hidden");

    cat = load();
    assert_problems(cat, 1);
    cr_assert_str_eq(lab_catalog_problem(cat, 0),
                     problem_at("exercises/ch/empty", 0, "missing exercise.ini"));
    cr_assert_eq(lab_catalog_exercise_count(cat), 1);
    lab_catalog_free(cat);
}

/* A baseline that names no exercise makes a step broken; the step built on that one still
 * loads, and the catalog says its baseline is broken (# 19: one bad key took ten steps away). */
Test(catalog, lost_baseline_chain)
{
    lab_catalog *cat;

    write_chapter("ch", "Chapter", 1);
    write_simple("ch", "good", 0);
    write_exercise(
        "ch/b", "[exercise]\nid = ch/b\nchapter = ch\ntitle = B\nkernel = k\n"
                "family = reduce-int\nsolution = solutions/ch/b.cu\nbaseline = ch/c\nsizes = 1\n");
    write_exercise(
        "ch/c", "[exercise]\nid = ch/c\nchapter = ch\ntitle = C\nkernel = k\n"
                "family = reduce-int\nsolution = solutions/ch/c.cu\nbaseline = ch/d\nsizes = 1\n");
    write_file("solutions/ch/b.cu", "\n");
    write_file("solutions/ch/c.cu", "\n");

    cat = load();
    assert_problems(cat, 2);
    cr_assert_str_eq(lab_catalog_problem(cat, 0), problem_at("exercises/ch/c/exercise.ini", 8,
                                                             "'baseline': no exercise 'ch/d'"));
    cr_assert_str_eq(lab_catalog_problem(cat, 1),
                     problem_at("exercises/ch/b/exercise.ini", 8,
                                "'baseline': 'ch/c' is broken: this step cannot be graded until it "
                                "is fixed"));
    cr_assert_eq(lab_catalog_exercise_count(cat), 2);
    cr_assert_not_null(lab_catalog_find(cat, "ch/good"));
    cr_assert_str_eq(lab_catalog_find(cat, "ch/b")->baseline, "ch/c");
    cr_assert_null(lab_catalog_find(cat, "ch/c"));
    cr_assert_eq(lab_catalog_broken_count(cat), 1);
    cr_assert_str_eq(lab_catalog_broken(cat, 0)->id, "ch/c");
    cr_assert_str_eq(lab_catalog_broken(cat, 0)->chapter, "ch");
    cr_assert_str_eq(lab_catalog_why_broken(cat, "ch/c"), lab_catalog_problem(cat, 0));
    cr_assert_null(lab_catalog_why_broken(cat, "ch/b"));
    cr_assert_null(lab_catalog_why_broken(cat, "ch/nope"));
    lab_catalog_free(cat);
}

/* A broken manifest is kept as a broken exercise whose reason is its first problem. */
Test(catalog, a_broken_exercise_says_why)
{
    lab_catalog *cat;

    write_chapter("ch", "Chapter", 1);
    write_simple("ch", "good", 0);
    write_exercise("ch/bad", "[exercise]\nid = ch/bad\nchapter = ch\ntitle = B\nkernel = k\n"
                             "family = reduce-int\nsolution = solutions/ch/bad.cu\n"
                             "baseline = cpu\nsizes = 1\nblcok = 3\n");
    write_file("solutions/ch/bad.cu", "\n");
    make_dir("exercises/ch/empty");

    cat = load();
    cr_assert_eq(lab_catalog_broken_count(cat), 2);
    cr_assert_str_eq(lab_catalog_broken(cat, 0)->id, "ch/bad");
    cr_assert_str_eq(lab_catalog_why_broken(cat, "ch/bad"),
                     problem_at("exercises/ch/bad/exercise.ini", 10, "unknown key 'blcok'"));
    cr_assert_str_eq(lab_catalog_why_broken(cat, "ch/empty"),
                     problem_at("exercises/ch/empty", 0, "missing exercise.ini"));
    cr_assert_null(lab_catalog_broken(cat, 2));
    lab_catalog_free(cat);
}

/* Files a manifest names stay inside the data folder; the family is one of the registry's. */
Test(catalog, paths_stay_inside_and_families_are_registered)
{
    lab_catalog *cat;

    write_chapter("ch", "Chapter", 1);
    write_exercise("ch/out", "[exercise]\nid = ch/out\nchapter = ch\ntitle = O\nkernel = k\n"
                             "family = reduce-int\nsolution = ../../../../etc/passwd\n"
                             "baseline = cpu\nsizes = 1\n");
    write_exercise("ch/abs", "[exercise]\nid = ch/abs\nchapter = ch\ntitle = A\nkernel = k\n"
                             "family = reduce-int\nsolution = /etc/passwd\n"
                             "baseline = cpu\nsizes = 1\nstarter = ../../../../etc/passwd\n");
    write_exercise("ch/fam", "[exercise]\nid = ch/fam\nchapter = ch\ntitle = F\nkernel = k\n"
                             "family = reduce-bogus\nsolution = solutions/ch/fam.cu\n"
                             "baseline = cpu\nsizes = 1\n");
    write_file("solutions/ch/fam.cu", "\n");

    cat = load();
    cr_assert_eq(lab_catalog_exercise_count(cat), 0);
    cr_assert_str_eq(lab_catalog_why_broken(cat, "ch/out"),
                     problem_at("exercises/ch/out/exercise.ini", 7,
                                "'solution': '../../../../etc/passwd' is outside the lab's data "
                                "folder"));
    cr_assert(strstr(lab_catalog_why_broken(cat, "ch/abs"),
                     "'solution': '/etc/passwd' is outside the lab's data folder") ||
                  strstr(lab_catalog_why_broken(cat, "ch/abs"),
                         "'starter': '../../../../etc/passwd' is outside the lab's data folder"),
              "%s", lab_catalog_why_broken(cat, "ch/abs"));
    cr_assert(strstr(lab_catalog_why_broken(cat, "ch/fam"),
                     "exercise.ini:6: 'family': unknown family 'reduce-bogus' (the families: "
                     "reduce-int,"),
              "%s", lab_catalog_why_broken(cat, "ch/fam"));
    lab_catalog_free(cat);
}

/* Several problems of one manifest come in line order, those on no line last. */
Test(catalog, problems_in_line_order)
{
    lab_catalog *cat;

    write_chapter("ch", "Chapter", 1);
    write_exercise("ch/bad", "[exercise]\n"
                             "id = ch/bad\n"
                             "chapter = ch\n"
                             "title = Bad\n"
                             "starter = gone.cu\n"
                             "family = reduce-int\n"
                             "solution = solutions/ch/bad.cu\n"
                             "what is this\n"
                             "baseline = cpu\n"
                             "sizes = 1, x\n");

    cat = load();
    assert_problems(cat, 4);
    cr_assert_str_eq(
        lab_catalog_problem(cat, 0),
        problem_at("exercises/ch/bad/exercise.ini", 5, "'starter': 'gone.cu' does not exist"));
    cr_assert_str_eq(lab_catalog_problem(cat, 1),
                     problem_at("exercises/ch/bad/exercise.ini", 8,
                                "syntax error: expected '[section]' or 'key = value'"));
    cr_assert_str_eq(lab_catalog_problem(cat, 2),
                     problem_at("exercises/ch/bad/exercise.ini", 10, "'sizes': 'x' is not a size"));
    cr_assert_str_eq(lab_catalog_problem(cat, 3), problem_at("exercises/ch/bad/exercise.ini", 0,
                                                             "missing required key 'kernel'"));
    cr_assert_eq(lab_catalog_exercise_count(cat), 0);
    lab_catalog_free(cat);
}

/* --- one broken manifest per case ----------------------------------------- */

/* The nine lines of a valid manifest for ch/bad; a case replaces or adds lines. */
#define SEC "[exercise]\n"
#define ID "id = ch/bad\n"
#define CHAP "chapter = ch\n"
#define TITLE "title = Bad\n"
#define KERNEL "kernel = reduceBad\n"
#define FAMILY "family = reduce-int\n"
#define SOLUTION "solution = solutions/ch/bad.cu\n"
#define BASELINE "baseline = cpu\n"
#define SIZES "sizes = 1, 1000\n"
#define VALID SEC ID CHAP TITLE KERNEL FAMILY SOLUTION BASELINE SIZES /* line 10 is next */

#define X10 "xxxxxxxxxx"
#define X100 X10 X10 X10 X10 X10 X10 X10 X10 X10 X10

/* Arrays, not pointers: Criterion copies the parameters into each test's own process. */
struct broken {
    char ini[512]; /* exercises/ch/bad/exercise.ini */
    char skip[16]; /* a default file of ch/bad to remove, or "" */
    unsigned line; /* the one problem expected */
    char msg[96];
};

ParameterizedTestParameters(catalog, broken_manifest)
{
    static struct broken cases[] = {
        { VALID "blcok = 256\n", "", 10, "unknown key 'blcok'" },
        { VALID "[extra]\nfoo = 1\nbar = 2\n", "", 10, "unknown section 'extra'" },
        { "order = 1\n" VALID, "", 1, "key 'order' is outside the [exercise] section" },
        { SEC ID CHAP TITLE FAMILY SOLUTION BASELINE SIZES, "", 0,
          "missing required key 'kernel'" },
        { SEC ID CHAP TITLE KERNEL FAMILY SOLUTION BASELINE, "", 0,
          "missing required key 'sizes'" },
        { VALID "title = Again\n", "", 10, "duplicate key 'title' (first set on line 4)" },
        { VALID "kernel =\n", "", 10, "duplicate key 'kernel' (first set on line 5)" },
        { SEC ID CHAP "title =\n" KERNEL FAMILY SOLUTION BASELINE SIZES, "", 4,
          "'title': value is empty" },
        { SEC ID CHAP TITLE KERNEL FAMILY SOLUTION BASELINE "sizes = 1, 12x\n", "", 9,
          "'sizes': '12x' is not a size" },
        { SEC ID CHAP TITLE KERNEL FAMILY SOLUTION BASELINE "sizes = 1<<64\n", "", 9,
          "'sizes': '1<<64' is not a size" },
        { SEC ID CHAP TITLE KERNEL FAMILY SOLUTION BASELINE "sizes = 0, 1\n", "", 9,
          "'sizes': '0' is not a size" },
        { SEC ID CHAP TITLE KERNEL FAMILY SOLUTION BASELINE "sizes = 1,,2\n", "", 9,
          "'sizes': '' is not a size" },
        { SEC ID CHAP TITLE KERNEL FAMILY SOLUTION BASELINE "sizes = -1\n", "", 9,
          "'sizes': '-1' is not a size" },
        { SEC ID CHAP TITLE KERNEL FAMILY SOLUTION BASELINE "sizes = 99999999999999999999\n", "", 9,
          "'sizes': '99999999999999999999' is not a size" },
        { VALID "order = two\n", "", 10, "'order': 'two' is not an integer" },
        { VALID "points = 1.5\n", "", 10, "'points': '1.5' is not an integer" },
        { VALID "points = -3\n", "", 10, "'points': '-3' is negative" },
        { VALID "block = 0\n", "", 10,
          "'block': '0' is not a block shape (X, XxY or XxYxZ, 1 to 1024 threads)" },
        { VALID "block = 2048\n", "", 10,
          "'block': '2048' is not a block shape (X, XxY or XxYxZ, 1 to 1024 threads)" },
        { VALID "block = 256x8\n", "", 10,
          "'block': '256x8' is not a block shape (X, XxY or XxYxZ, 1 to 1024 threads)" },
        { VALID "block = 40x2, 8x0x2\n", "", 10,
          "'block': '8x0x2' is not a block shape (X, XxY or XxYxZ, 1 to 1024 threads)" },
        { VALID "block = 2x2x2x2\n", "", 10,
          "'block': '2x2x2x2' is not a block shape (X, XxY or XxYxZ, 1 to 1024 threads)" },
        { VALID "block = 40 x 2\n", "", 10,
          "'block': '40 x 2' is not a block shape (X, XxY or XxYxZ, 1 to 1024 threads)" },
        { VALID "block = 32x\n", "", 10,
          "'block': '32x' is not a block shape (X, XxY or XxYxZ, 1 to 1024 threads)" },
        { VALID "block = 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17\n", "", 10,
          "'block': 17 shapes, at most 16" },
        { VALID "unroll = 0\n", "", 10, "'unroll': '0' is not between 1 and 1024" },
        { VALID "min_speedup = fast\n", "", 10, "'min_speedup': 'fast' is not a number" },
        { VALID "min_speedup = 1.1x\n", "", 10, "'min_speedup': '1.1x' is not a number" },
        { VALID "min_speedup = nan\n", "", 10, "'min_speedup': 'nan' is not a number" },
        { VALID "min_speedup = -1\n", "", 10, "'min_speedup': '-1' is negative" },
        { VALID "min_fraction_of_reference = -0.5\n", "", 10,
          "'min_fraction_of_reference': '-0.5' is negative" },
        { VALID "run_timeout = 0\n", "", 10, "'run_timeout': '0' is not positive" },
        { VALID "build_timeout = soon\n", "", 10, "'build_timeout': 'soon' is not a number" },
        { SEC "id = ch/other\n" CHAP TITLE KERNEL FAMILY SOLUTION BASELINE SIZES, "", 2,
          "'id': 'ch/other' does not match the directory 'ch/bad'" },
        { SEC ID "chapter = other\n" TITLE KERNEL FAMILY SOLUTION BASELINE SIZES, "", 3,
          "'chapter': 'other' does not match the directory 'ch'" },
        { SEC ID CHAP TITLE KERNEL "family = ../../bin/sh\n" SOLUTION BASELINE SIZES, "", 6,
          "'family': '../../bin/sh' is not a driver name" },
        { VALID "starter = nothere.cu\n", "", 10, "'starter': 'nothere.cu' does not exist" },
        { VALID, "starter.cu", 0, "'starter': 'starter.cu' does not exist" },
        { SEC ID CHAP TITLE KERNEL FAMILY "solution = solutions/ch/none.cu\n" BASELINE SIZES, "", 7,
          "'solution': 'solutions/ch/none.cu' does not exist" },
        { VALID "task = nothere.md\n", "", 10, "'task': 'nothere.md' does not exist" },
        { VALID, "task.md", 0, "'task': 'task.md' does not exist" },
        { VALID "task = .\n", "", 10, "'task': '.' is not a regular file" },
        { VALID "hints = nothere.md\n", "", 10, "'hints': 'nothere.md' does not exist" },
        { VALID "timing_sizes = 1000, 7\n", "", 10, "'timing_sizes': '7' is not one of the sizes" },
        { VALID "timing_sizes = x\n", "", 10, "'timing_sizes': 'x' is not a size" },
        { VALID "constraints = allow atom\n", "", 10,
          "'constraints': 'allow atom' is not 'forbid X' or 'require X'" },
        { VALID "constraints = forbid atom, require\n", "", 10,
          "'constraints': 'require' is not 'forbid X' or 'require X'" },
        { VALID "constraints = forbid atom.*\n", "", 10,
          "'constraints': 'forbid atom.*' is not 'forbid X' or 'require X'" },
        { VALID "constraints = forbid atom,\n", "", 10,
          "'constraints': '' is not 'forbid X' or 'require X'" },
        { VALID "this is not ini\n", "", 10,
          "syntax error: expected '[section]' or 'key = value'" },
        { VALID "[extra\n", "", 10, "syntax error: expected '[section]' or 'key = value'" },
        { SEC ID CHAP TITLE KERNEL FAMILY SOLUTION "baseline = ch/bad\n" SIZES, "", 8,
          "'baseline': 'ch/bad' is this exercise" },
        { SEC ID CHAP TITLE KERNEL FAMILY SOLUTION "baseline = ch/nope\n" SIZES, "", 8,
          "'baseline': no exercise 'ch/nope'" },
        /* inih's line buffer is INI_MAX_LINE (200) bytes: 198 characters and the newline */
        { VALID "instantiate = " X100 X100 "\n", "", 10,
          "line too long (more than 198 characters)" },
    };

    return cr_make_param_array(struct broken, cases, ARRAY_SIZE(cases));
}

ParameterizedTest(struct broken *c, catalog, broken_manifest)
{
    lab_catalog *cat;
    char rel[PATH_MAX];

    write_chapter("ch", "Chapter", 1);
    write_simple("ch", "good", 0);
    write_exercise("ch/bad", c->ini);
    if (c->skip[0]) {
        snprintf(rel, sizeof(rel), "exercises/ch/bad/%s", c->skip);
        cr_assert(unlink(at(rel)) == 0);
    }

    cat = load();
    assert_problems(cat, 1);
    cr_assert_str_eq(lab_catalog_problem(cat, 0),
                     problem_at("exercises/ch/bad/exercise.ini", c->line, c->msg));
    cr_assert_null(lab_catalog_find(cat, "ch/bad"));
    cr_assert_not_null(lab_catalog_find(cat, "ch/good"), "the sibling still loads");
    cr_assert_eq(lab_catalog_exercise_count(cat), 1);
    lab_catalog_free(cat);
}

Test(catalog, block_shapes)
{
    lab_catalog *cat;
    const lab_exercise *ex;
    char text[32];

    write_chapter("ch", "Chapter", 1);
    write_exercise("ch/bad", VALID "block = 40x2, 8x4x2 ,1024, 1x1x64,32x32x1\n");
    cat = load();
    assert_problems(cat, 0);
    cr_assert_not_null(ex = lab_catalog_find(cat, "ch/bad"));
    cr_assert_eq(ex->nblocks, 5);
    cr_assert_eq(ex->block, 80, "threads of the first shape");
    cr_assert(ex->blocks[0].x == 40 && ex->blocks[0].y == 2 && ex->blocks[0].z == 1);
    cr_assert(ex->blocks[1].x == 8 && ex->blocks[1].y == 4 && ex->blocks[1].z == 2);
    cr_assert(ex->blocks[2].x == 1024 && ex->blocks[2].y == 1 && ex->blocks[2].z == 1);
    cr_assert(ex->blocks[3].x == 1 && ex->blocks[3].y == 1 && ex->blocks[3].z == 64);
    cr_assert(ex->blocks[4].x == 32 && ex->blocks[4].y == 32 && ex->blocks[4].z == 1);
    lab_block_shape_format(&ex->blocks[0], text, sizeof(text));
    cr_assert_str_eq(text, "40x2");
    lab_block_shape_format(&ex->blocks[1], text, sizeof(text));
    cr_assert_str_eq(text, "8x4x2");
    lab_block_shape_format(&ex->blocks[2], text, sizeof(text));
    cr_assert_str_eq(text, "1024");
    lab_block_shape_format(&ex->blocks[3], text, sizeof(text));
    cr_assert_str_eq(text, "1x1x64");
    lab_block_shape_format(&ex->blocks[4], text, sizeof(text));
    cr_assert_str_eq(text, "32x32", "a z of 1 is left out");
    lab_catalog_free(cat);
}

Test(catalog, chapter_demo)
{
    lab_catalog *cat;

    write_file("exercises/a/chapter.ini", "[chapter]\ntitle = A\norder = 1\ndemo = demo-a\n");
    write_file("exercises/b/chapter.ini", "[chapter]\ntitle = B\norder = 2\n");
    write_file("exercises/c/chapter.ini", "[chapter]\ntitle = C\norder = 3\ndemo = ../x\n");
    cat = load();
    assert_problems(cat, 1);
    cr_assert(strstr(lab_catalog_problem(cat, 0), "chapter.ini:4: 'demo': '../x' is not a driver "
                                                  "name"),
              "%s", lab_catalog_problem(cat, 0));
    cr_assert_str_eq(lab_catalog_chapter(cat, 0)->demo, "demo-a");
    cr_assert_null(lab_catalog_chapter(cat, 1)->demo);
    cr_assert_null(lab_catalog_chapter(cat, 2)->demo, "a broken chapter.ini keeps the defaults");
    lab_catalog_free(cat);
}

/* --- kind, output, grid_per_sm, entry, timing_sizes = none ------------------ */

static const char launch_keys_head[] = "[exercise]\n"
                                       "id = reduction/x\n"
                                       "chapter = reduction\n"
                                       "title = X\n"
                                       "kernel = k\n"
                                       "family = reduce-int\n"
                                       "solution = solutions/reduction/x.cu\n"
                                       "baseline = cpu\n"
                                       "sizes = 1, 1000\n";

Test(catalog, launch_keys_default)
{
    lab_catalog *cat;
    const lab_exercise *ex;

    write_chapter("reduction", "Reduction", 1);
    write_exercise("reduction/x", launch_keys_head);
    cat = load();
    assert_problems(cat, 0);
    cr_assert_not_null(ex = lab_catalog_find(cat, "reduction/x"));
    cr_expect_eq(ex->kind, LAB_KIND_DEVICE);
    cr_expect_eq(ex->output, LAB_OUTPUT_PARTIALS);
    cr_expect_eq(ex->grid_per_sm, 0);
    cr_expect_null(ex->entry);
    cr_expect_eq(ex->ntiming_sizes, 1, "the largest size is timed by default");
    cr_expect_not(ex->rdc, "no relocatable device code unless asked");
    lab_catalog_free(cat);
}

Test(catalog, launch_keys_set)
{
    char ini[2048];
    lab_catalog *cat;
    const lab_exercise *ex;

    snprintf(ini, sizeof(ini), "%s%s", launch_keys_head,
             "kind = host\noutput = total\ngrid_per_sm = 4\n"
             "entry = _Z1kILj512EEvPiS0_j\ntiming_sizes = none\n");
    write_chapter("reduction", "Reduction", 1);
    write_exercise("reduction/x", ini);
    cat = load();
    assert_problems(cat, 0);
    cr_assert_not_null(ex = lab_catalog_find(cat, "reduction/x"));
    cr_expect_eq(ex->kind, LAB_KIND_HOST);
    cr_expect_eq(ex->output, LAB_OUTPUT_TOTAL);
    cr_expect_eq(ex->grid_per_sm, 4);
    cr_expect_str_eq(ex->entry, "_Z1kILj512EEvPiS0_j");
    cr_expect_eq(ex->ntiming_sizes, 0, "timing_sizes = none: correctness alone");
    lab_catalog_free(cat);
}

Test(catalog, launch_keys_bad_words)
{
    char ini[2048];
    lab_catalog *cat;
    const char *rel = "exercises/reduction/x/exercise.ini";

    snprintf(ini, sizeof(ini), "%s%s", launch_keys_head,
             "kind = gpu\noutput = sum\ngrid_per_sm = 65\n");
    write_chapter("reduction", "Reduction", 1);
    write_exercise("reduction/x", ini);
    cat = load();
    assert_problems(cat, 3);
    cr_expect_str_eq(lab_catalog_problem(cat, 0),
                     problem_at(rel, 10, "'kind': 'gpu' is not 'device' or 'host'"));
    cr_expect_str_eq(lab_catalog_problem(cat, 1),
                     problem_at(rel, 11, "'output': 'sum' is not 'partials' or 'total'"));
    cr_expect_str_eq(lab_catalog_problem(cat, 2),
                     problem_at(rel, 12, "'grid_per_sm': '65' is not between 1 and 64"));
    lab_catalog_free(cat);
}

Test(catalog, rdc_key)
{
    lab_catalog *cat;
    const lab_exercise *ex;
    const char *rel = "exercises/dynpar/bad/exercise.ini";

    write_chapter("dynpar", "Dynamic parallelism", 6);
    write_exercise("dynpar/x",
                   "[exercise]\nid = dynpar/x\nchapter = dynpar\ntitle = X\n"
                   "kernel = k\nfamily = reduce-nested\nsolution = solutions/dynpar/x.cu\n"
                   "baseline = cpu\nsizes = 1\nrdc = true\n");
    write_exercise("dynpar/bad",
                   "[exercise]\nid = dynpar/bad\nchapter = dynpar\ntitle = X\n"
                   "kernel = k\nfamily = reduce-nested\nsolution = solutions/dynpar/bad.cu\n"
                   "baseline = cpu\nsizes = 1\nrdc = yes\n");
    cat = load();
    assert_problems(cat, 1);
    cr_expect_str_eq(lab_catalog_problem(cat, 0),
                     problem_at(rel, 10, "'rdc': 'yes' is not 'true' or 'false'"));
    cr_assert_not_null(ex = lab_catalog_find(cat, "dynpar/x"));
    cr_expect(ex->rdc, "rdc = true");
    lab_catalog_free(cat);
}
