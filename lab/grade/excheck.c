/*
 * excheck.c - check-exercise (see excheck.h): catalog problems of the
 * exercise's manifest, the starter and the solution graded, then every
 * example submission graded and compared with the verdict it names.
 */
#include "lab/grade/excheck.h"
#include "lab/build/constraints.h"
#include "lab/util/dirlist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXPECT_TAG "expect:"
#define CHECK_SEED 20240601

/* The example folders and which verdicts their files may name. */
static const struct {
    const char *dir;
    bool may_pass; /* PASS or SLOW expected (ok/); else anything but PASS (SLOW: a copied step) */
    int want;      /* at least this many examples per step (the rule) */
} kinds[] = {
    { "ok", true, 1 },
    { "wrong", false, 3 },
    { "cheat", false, 2 },
};

void
lab_excheck_init(lab_excheck *c)
{
    memset(c, 0, sizeof(*c));
}

void
lab_excheck_release(lab_excheck *c)
{
    lab_strvec_release(&c->problems);
    lab_strvec_release(&c->notes);
    lab_trcheck_release(&c->tr);
    lab_strvec_release(&c->chapters);
}

/* Add "file:line: [kind]message" to list. */
static void
add_line(lab_strvec *list, const char *file, unsigned line, const char *kind, const char *fmt,
         va_list ap)
{
    lab_buf b = LAB_BUF_INIT;

    lab_buf_printf(&b, "%s:%u: %s", file, line, kind);
    lab_buf_vprintf(&b, fmt, ap);
    lab_strvec_push(list, b.buf);
    lab_buf_release(&b);
}

static void problem(lab_excheck *c, const char *file, unsigned line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
problem(lab_excheck *c, const char *file, unsigned line, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    add_line(&c->problems, file, line, "", fmt, ap);
    va_end(ap);
    c->failed++;
}

static void note(lab_excheck *c, const char *file, unsigned line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
note(lab_excheck *c, const char *file, unsigned line, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    add_line(&c->notes, file, line, "note: ", fmt, ap);
    va_end(ap);
}

int
lab_excheck_expected(const char *path, lab_verdict *out, lab_err *err)
{
    char line[256], word[32];
    FILE *fp = fopen(path, "r");
    const char *p;
    bool got;

    if (!fp)
        return lab_err_set(err, LAB_EIO, "cannot open '%s'", path);
    got = fgets(line, sizeof(line), fp) != NULL;
    fclose(fp);
    if (!got || !(p = strstr(line, EXPECT_TAG)) || strncmp(line, "//", 2))
        return lab_err_set(err, LAB_EPARSE,
                           "the first line must name the expected verdict, e.g. "
                           "'// " EXPECT_TAG " WRONG (why)'");
    p += strlen(EXPECT_TAG);
    if (sscanf(p, " %31[A-Z_]", word) != 1 || lab_verdict_parse(word, out) < 0)
        return lab_err_set(err, LAB_EPARSE, "'%.*s' is not a verdict (PASS, WRONG, SLOW, ...)",
                           (int)strcspn(p + strspn(p, " "), " \n"), p + strspn(p, " "));
    return 0;
}

/* Verdicts settled before anything runs: a run-less grading checks these exactly. */
static bool
settled_before_run(lab_verdict v)
{
    return v == LAB_VERDICT_COMPILE_ERROR || v == LAB_VERDICT_CONSTRAINT;
}

static int
grade(lab *l, const lab_exercise *ex, const char *file, const volatile sig_atomic_t *cancel,
      lab_grading *g, lab_err *err)
{
    lab_grade_request req = { .ex = ex, .file = file, .seed = CHECK_SEED, .cancel = cancel };

    lab_grading_init(g);
    return lab_grade(l, &req, g, err);
}

static const char *
vname(lab_verdict v)
{
    return lab_verdict_describe(v)->name;
}

/* PASS, SLOW: correct; what a grading without a GPU cannot tell apart (no timing). */
static bool
is_correct(lab_verdict v)
{
    return v == LAB_VERDICT_PASS || v == LAB_VERDICT_SLOW;
}

/* Which file a grading checks: a modelled verdict that disagrees fails the solution and the
 * starter (a student without a GPU would get it), and is only noted for an example (the model's
 * bounds allow a few: docs/bench/model.md). */
typedef enum checked_file {
    CHECKED_SOLUTION,
    CHECKED_STARTER,
    CHECKED_EXAMPLE,
} checked_file;

/* A speed verdict on the simulator's modelled times (lab/grade/modelled.h), compared with the
 * expected one: agreeing, it counts as modelled, never as a speed check. */
static void
judge_modelled(lab_excheck *c, const char *file, const lab_grading *g, lab_verdict expected,
               checked_file which)
{
    lab_verdict got = g->result.verdict;
    const char *gpu = g->model.gpu.name;

    if (which == CHECKED_STARTER ? got != LAB_VERDICT_PASS : got == expected) {
        c->modelled++;
        note(c, file, 1,
             "%s on times modelled for an %s, as expected; speed modelled, not measured",
             vname(got), gpu);
    } else if (which == CHECKED_EXAMPLE) {
        c->unchecked++;
        note(c, file, 1,
             "expected %s, but %s on times modelled for an %s: speed not checked; grade it on a "
             "GPU (%s)",
             vname(expected), vname(got), gpu, g->result.message);
    } else if (which == CHECKED_STARTER) {
        problem(c, file, 1,
                "the untouched starter passes on times modelled for an %s, so a student without "
                "a GPU passes with it: %s",
                gpu, g->result.message);
    } else {
        problem(c, file, 1,
                "expected PASS, got %s on times modelled for an %s, so a student without a GPU "
                "cannot pass with the solution: %s",
                vname(got), gpu, g->result.message);
    }
}

/*
 * Compare a grading with what was expected: the verdict itself, or, for the starter, anything
 * but PASS.  Without a GPU, a speed verdict on modelled times is compared (judge_modelled); else
 * only the class is compared: a grading that stopped at NO_GPU (compiled, constraints hold) or
 * a simulator's correct verdict stands for every run-time verdict of its class, and the check
 * counts as not run.  SIM_UNSUPPORTED is what the simulator cannot run, not a fault of the
 * exercise: not run either, said so.  Host code without speed that ran here (the CPU
 * reduction, the occupancy calculator on the lab's tables) was checked in full: its verdict is
 * compared exactly.
 */
static void
judge(lab_excheck *c, const lab_exercise *ex, const char *file, const lab_grading *g,
      lab_verdict expected, checked_file which)
{
    lab_verdict got = g->result.verdict;
    bool gpu = g->device.present, any_but_pass = which == CHECKED_STARTER;
    bool ran_in_full =
        ex->ntiming_sizes == 0 && !strcmp(g->backend, "host") && got != LAB_VERDICT_NO_GPU;

    c->checks++;
    if (!gpu && g->has_model && is_correct(got) && (any_but_pass || is_correct(expected))) {
        judge_modelled(c, file, g, expected, which);
        return;
    }
    if (!gpu && !ran_in_full &&
        (got == LAB_VERDICT_NO_GPU || got == LAB_VERDICT_SIM_UNSUPPORTED ||
         (is_correct(got) && (any_but_pass || is_correct(expected))))) {
        if (!any_but_pass && settled_before_run(expected)) {
            problem(c, file, 1, "expected %s, but it compiles and meets the constraints",
                    vname(expected));
        } else {
            c->unchecked++;
            if (got == LAB_VERDICT_SIM_UNSUPPORTED)
                note(c, file, 1,
                     "compiled, constraints hold; the simulator cannot run it, so correctness "
                     "and speed are checked only on a GPU (%s)",
                     g->result.message);
            else if (got == LAB_VERDICT_NO_GPU && !strcmp(g->backend, "sim"))
                note(c, file, 1, "correct on the simulator, speed not checked (%s)",
                     g->result.message);
            else if (got == LAB_VERDICT_NO_GPU)
                note(c, file, 1,
                     "compiled, constraints hold; correctness and speed not checked "
                     "without a GPU (%s)",
                     g->result.message);
            else
                note(c, file, 1, "%s without a GPU: correct, speed not checked (%s)", vname(got),
                     g->result.message);
        }
        return;
    }
    if (any_but_pass ? got != LAB_VERDICT_PASS : got == expected)
        return;
    if (any_but_pass)
        problem(c, file, 1, "expected anything but PASS, got PASS: %s", g->result.message);
    else
        problem(c, file, 1, "expected %s, got %s: %s", vname(expected), vname(got),
                g->result.message);
}

static int
check_examples(lab *l, const lab_exercise *ex, const volatile sig_atomic_t *cancel, lab_excheck *c,
               lab_err *err)
{
    int rc = 0;

    for (size_t k = 0; rc == 0 && k < ARRAY_SIZE(kinds); k++) {
        lab_buf dir = LAB_BUF_INIT;
        lab_strvec files = LAB_STRVEC_INIT;

        lab_buf_printf(&dir, "%s/examples/%s", ex->dir, kinds[k].dir);
        lab_dirlist(dir.buf, ".cu", true, &files);
        if (files.n < (size_t)kinds[k].want)
            note(c, ex->manifest, 0, "%zu %s example(s) in examples/%s; each step should have %d",
                 files.n, kinds[k].dir, kinds[k].dir, kinds[k].want);
        for (size_t i = 0; rc == 0 && i < files.n; i++) {
            lab_err perr = LAB_ERR_INIT;
            lab_verdict want;
            lab_grading g;
            bool passes;

            if (lab_excheck_expected(files.v[i], &want, &perr) < 0) {
                problem(c, files.v[i], 1, "%s", perr.msg);
                continue;
            }
            passes = want == LAB_VERDICT_PASS || want == LAB_VERDICT_SLOW;
            if (kinds[k].may_pass ? !passes : want == LAB_VERDICT_PASS) {
                problem(c, files.v[i], 1, "an example in %s/ may not expect %s", kinds[k].dir,
                        vname(want));
                continue;
            }
            c->examples++;
            if ((rc = grade(l, ex, files.v[i], cancel, &g, err)) == 0)
                judge(c, ex, files.v[i], &g, want, CHECKED_EXAMPLE);
            lab_grading_release(&g);
        }
        lab_strvec_release(&files);
        lab_buf_release(&dir);
    }
    return rc;
}

/* Catalog problems in files under exercises/<id>/; returns how many. */
static int
manifest_problems(lab *l, const char *id, lab_excheck *c)
{
    const lab_catalog *cat = lab_catalog_of(l);
    lab_buf prefix = LAB_BUF_INIT;
    int n = 0;

    lab_buf_printf(&prefix, "%s/exercises/%s/", lab_datadir(l), id);
    for (size_t i = 0; i < lab_catalog_problem_count(cat); i++) {
        const char *p = lab_catalog_problem(cat, i);
        if (!strncmp(p, prefix.buf, prefix.len)) {
            lab_strvec_push(&c->problems, p);
            c->failed++;
            n++;
        }
    }
    lab_buf_release(&prefix);
    return n;
}

/* The lines of from onto to (as problems when fail), counted into *count; from is emptied. */
static int
move_lines(lab_excheck *c, lab_strvec *from, bool fail, int *count)
{
    int rc = 0;

    for (size_t i = 0; rc == 0 && i < from->n; i++)
        rc = lab_strvec_push(fail ? &c->problems : &c->notes, from->v[i]);
    if (count)
        *count += (int)from->n;
    if (fail)
        c->failed += (int)from->n;
    lab_strvec_release(from);
    return rc;
}

static const lab_chapter *
chapter_of(const lab_catalog *cat, const char *id)
{
    for (size_t i = 0; i < lab_catalog_chapter_count(cat); i++)
        if (!strcmp(lab_catalog_chapter(cat, i)->id, id))
            return lab_catalog_chapter(cat, i);
    return NULL;
}

/* The chapter's files, once: its chapter.ini, its text and its questions. */
static int
check_chapter_translations(lab *l, const char *id, lab_excheck *c, lab_err *err)
{
    const lab_chapter *ch = chapter_of(lab_catalog_of(l), id);
    lab_buf ini = LAB_BUF_INIT, questions = LAB_BUF_INIT;
    int rc;

    for (size_t i = 0; i < c->chapters.n; i++)
        if (!strcmp(c->chapters.v[i], id))
            return 0;
    if ((rc = lab_strvec_push(&c->chapters, id)) < 0)
        return lab_err_set(err, rc, "out of memory");
    lab_buf_printf(&ini, "%s/exercises/%s/chapter.ini", lab_datadir(l), id);
    lab_buf_printf(&questions, "%s/exercises/%s/questions.ini", lab_datadir(l), id);
    if (access(ini.buf, F_OK) == 0)
        rc = lab_trcheck_file(&c->tr, ini.buf, LAB_TRCHECK_TITLE, err);
    if (rc == 0 && ch && ch->text)
        rc = lab_trcheck_file(&c->tr, ch->text, LAB_TRCHECK_TEXT, err);
    if (rc == 0 && access(questions.buf, F_OK) == 0)
        rc = lab_trcheck_file(&c->tr, questions.buf, LAB_TRCHECK_QUESTIONS, err);
    lab_buf_release(&ini);
    lab_buf_release(&questions);
    return rc;
}

static int
check_translations(lab *l, const lab_exercise *ex, lab_excheck *c, lab_err *err)
{
    int rc = 0;

    if (!c->tr_ready && (rc = lab_trcheck_init(&c->tr, lab_datadir(l), err)) < 0)
        return rc;
    c->tr_ready = true;
    c->tr.cat = lab_catalog_of(l);
    if (!c->tr.languages.n)
        return 0;
    if ((rc = check_chapter_translations(l, ex->chapter, c, err)) == 0 &&
        (rc = lab_trcheck_file(&c->tr, ex->manifest, LAB_TRCHECK_TITLE, err)) == 0 &&
        (rc = lab_trcheck_file(&c->tr, ex->task, LAB_TRCHECK_TEXT, err)) == 0 && ex->hints_file)
        rc = lab_trcheck_file(&c->tr, ex->hints_file, LAB_TRCHECK_HINTS, err);
    if (rc == 0 &&
        ((rc = move_lines(c, &c->tr.missing, c->strict_translations, &c->translations_missing)) <
             0 ||
         (rc = move_lines(c, &c->tr.stale, c->strict_translations, &c->translations_stale)) < 0 ||
         (rc = move_lines(c, &c->tr.broken, true, NULL)) < 0))
        rc = lab_err_set(err, rc, "out of memory");
    return rc;
}

/* A constraint that names a class by one of its PTX spellings ("forbid atom") means the whole
 * class (lab/build/constraints.h); the manifest should say so */
static void
check_spellings(const lab_exercise *ex, lab_excheck *c)
{
    for (size_t i = 0; i < ex->nconstraints; i++) {
        lab_buf better = LAB_BUF_INIT;
        if (lab_constraints_spelling(ex->constraints[i], &better))
            note(c, ex->manifest, 1,
                 "'%s' means '%s': every PTX form of the class counts, so write that",
                 ex->constraints[i], better.buf);
        lab_buf_release(&better);
    }
}

int
lab_excheck_run(lab *l, const char *id, const volatile sig_atomic_t *cancel, lab_excheck *c,
                lab_err *err)
{
    const lab_exercise *ex = lab_catalog_find(lab_catalog_of(l), id);
    lab_grading g;
    int rc, nprob;

    nprob = manifest_problems(l, id, c);
    c->checks++;
    if (!ex)
        return nprob ? 0 : lab_err_set(err, LAB_ENOENT, "unknown exercise '%s'", id);
    if ((rc = check_translations(l, ex, c, err)) < 0 || c->translations_only)
        return rc;
    if (ex->format == 0)
        note(c, ex->manifest, 1, "no 'format = 1': the manifest should name its format version");
    check_spellings(ex, c);
    if ((rc = grade(l, ex, ex->solution, cancel, &g, err)) == 0)
        judge(c, ex, ex->solution, &g, LAB_VERDICT_PASS, CHECKED_SOLUTION);
    lab_grading_release(&g);
    if (rc < 0)
        return lab_err_wrap(err, "%s: the solution", id);
    if ((rc = grade(l, ex, ex->starter, cancel, &g, err)) == 0)
        judge(c, ex, ex->starter, &g, LAB_VERDICT_COUNT, CHECKED_STARTER);
    lab_grading_release(&g);
    if (rc < 0)
        return lab_err_wrap(err, "%s: the starter", id);
    return check_examples(l, ex, cancel, c, err);
}

/* ids of broken manifests: the exercises/<chapter>/<name>/ of problems outside any exercise */
static void
broken_ids(lab *l, lab_strvec *out)
{
    const lab_catalog *cat = lab_catalog_of(l);
    lab_buf prefix = LAB_BUF_INIT;

    lab_buf_printf(&prefix, "%s/exercises/", lab_datadir(l));
    for (size_t i = 0; i < lab_catalog_problem_count(cat); i++) {
        const char *p = lab_catalog_problem(cat, i), *rest, *slash;
        lab_buf id = LAB_BUF_INIT;
        bool seen = false;

        if (strncmp(p, prefix.buf, prefix.len))
            continue;
        rest = p + prefix.len;
        if (!(slash = strchr(rest, '/')) || !(slash = strchr(slash + 1, '/')))
            continue;
        lab_buf_add(&id, rest, (size_t)(slash - rest));
        for (size_t j = 0; j < out->n; j++)
            seen = seen || !strcmp(out->v[j], id.buf);
        if (!seen && !lab_catalog_find(cat, id.buf))
            lab_strvec_push(out, id.buf);
        lab_buf_release(&id);
    }
    lab_buf_release(&prefix);
}

int
lab_excheck_run_all(lab *l, const volatile sig_atomic_t *cancel, lab_excheck *c, lab_err *err)
{
    const lab_catalog *cat = lab_catalog_of(l);
    lab_strvec broken = LAB_STRVEC_INIT;
    int rc = 0;

    for (size_t i = 0; rc == 0 && i < lab_catalog_exercise_count(cat); i++)
        rc = lab_excheck_run(l, lab_catalog_exercise(cat, i)->id, cancel, c, err);
    broken_ids(l, &broken);
    for (size_t i = 0; rc == 0 && i < broken.n; i++)
        rc = lab_excheck_run(l, broken.v[i], cancel, c, err);
    lab_strvec_release(&broken);
    return rc;
}
