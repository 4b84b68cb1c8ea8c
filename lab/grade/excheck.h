/*
 * excheck.h - checking one exercise before students see it (`cudalab
 * check-exercise`): the manifest against its schema, its files, its starter
 * and solution graded, and its example submissions graded against the
 * verdicts they name.
 *
 * Example submissions live in exercises/<chapter>/<name>/examples/ok, wrong
 * and cheat; each .cu's first line names its expected verdict:
 *     // expect: WRONG  (reads past n in the last block)
 * ok/ examples expect PASS or SLOW, wrong/ and cheat/ examples anything but
 * PASS.  A step with fewer than one ok, three wrong or two cheat examples gets
 * a note ("... each step should have N").
 *
 * Without a GPU a grading stops at NO_GPU after compiling and checking the
 * constraints (or, where the lab grades on the simulator, after the
 * correctness run): what can be checked is checked -- COMPILE_ERROR and
 * CONSTRAINT exactly, the rest by verdict class -- and the rest is counted in
 * `unchecked`, so that the report can say that speed was not checked.  A speed
 * verdict on the simulator's modelled times (lab/grade/modelled.h) is compared
 * with the expected one and counted in `modelled`, never as a speed check: one
 * that disagrees fails the solution or the starter (students without a GPU get
 * it) and leaves an example unchecked.
 *
 * Translations: for each language the tree has, every text file of the exercise and of its
 * chapter (titles, task, hints, chapter text, questions) is checked as trcheck.h says.
 *
 * Call order: lab_excheck_init (then set translations_only, strict_translations); lab_excheck_run
 * (once per exercise, or lab_excheck_run_all); read problems/notes/counters; lab_excheck_release.
 */
#ifndef LAB_GRADE_EXCHECK_H
#define LAB_GRADE_EXCHECK_H

#include <signal.h>

#include "lab/catalog/trcheck.h"
#include "lab/grade/grade.h"
#include "lab/util/strvec.h"

typedef struct lab_excheck {
    lab_strvec problems; /* "file:line: message", each a failure */
    lab_strvec notes;    /* "file:line: note: ...", warnings and what was not checked */
    int checks;          /* gradings and file checks made */
    int failed;          /* problems.n */
    int unchecked;       /* gradings whose run could not happen here (no GPU) */
    int modelled;        /* speed verdicts on modelled times that agreed, not measured */
    int examples;        /* example submissions graded */
    /* The translations of the exercise's and its chapter's text files (lab/catalog/trcheck.h):
     * a broken one is a problem; a missing or stale one a note, or a problem when strict. */
    bool translations_only;   /* check the translations, grade nothing */
    bool strict_translations; /* a missing or stale translation fails */
    int translations_missing;
    int translations_stale;
    lab_trcheck tr; /* its languages: those the tree has, once tr_ready */
    bool tr_ready;
    lab_strvec chapters; /* chapters whose files were checked */
} lab_excheck;

void lab_excheck_init(lab_excheck *c);
void lab_excheck_release(lab_excheck *c);
/* Check exercise id (which may be one whose manifest is broken: its problems are reported).
 * Returns 0 when it could check (see c->failed), <0 when the lab could not (LAB_ENOENT for an
 * unknown id, LAB_ECANCEL). */
int lab_excheck_run(lab *l, const char *id, const volatile sig_atomic_t *cancel, lab_excheck *c,
                    lab_err *err);
/* Every exercise of the catalog, and every broken manifest. */
int lab_excheck_run_all(lab *l, const volatile sig_atomic_t *cancel, lab_excheck *c, lab_err *err);
/* The verdict named on a file's first line ("// expect: WRONG ..."); LAB_EPARSE when none. */
int lab_excheck_expected(const char *path, lab_verdict *out, lab_err *err);

#endif
