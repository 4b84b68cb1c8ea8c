/*
 * questions.h - "predict before you run": a chapter's questions, asked before
 * a demo or a grading; the learner answers (a choice or a number), the lab
 * runs, then shows the measurement, whether the prediction held, and why.
 *
 * They live in exercises/<chapter>/questions.ini (read with libinih):
 *   [questions]
 *   version = 1                      the format's version; this reader knows 1
 *   [question fastest-kernel]        one section per question; the id is unique in the chapter
 *   kind = choice                    choice | number
 *   prompt = Which of mathKernel1-4 is fastest on your GPU?
 *   choices = mathKernel1 | mathKernel2 | mathKernel3 | mathKernel4 | all about the same
 *   answer = all about the same      a choice, a number, or "measured": the run decides
 *   tolerance = 0.15                 number questions: relative tolerance (default 0.1)
 *   measure = demo divergence        what the run is: "demo CHAPTER" or "grade EXERCISE"
 *   exercise = reduction/neighbored-less   optional: ask before grading this exercise
 *   explain = One or more sentences shown after the run.
 * Every chapter has at least two questions (lab_questions_check).
 *
 * Ownership: lab_questions_load fills a lab_questions that the caller releases.
 */
#ifndef LAB_CATALOG_QUESTIONS_H
#define LAB_CATALOG_QUESTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "lab/catalog/catalog.h"
#include "lab/util/err.h"

#define LAB_QUESTIONS_VERSION 1
#define LAB_QUESTIONS_MIN 2
#define LAB_QUESTION_CHOICES_MAX 8

typedef enum lab_question_kind { LAB_QUESTION_CHOICE, LAB_QUESTION_NUMBER } lab_question_kind;

typedef struct lab_question {
    char *id;
    lab_question_kind kind;
    char *prompt;
    char *choices[LAB_QUESTION_CHOICES_MAX];
    size_t nchoices;
    char *answer;     /* a choice, a number, or "measured" */
    double tolerance; /* relative, number questions */
    char *measure;    /* "demo divergence", "grade reduction/neighbored-less", or NULL */
    char *exercise;   /* NULL when the question belongs to the chapter only */
    char *explain;
    int line; /* of its section */
    /* From a translation (lab_questions_translate); NULL where there is none.  The fields
     * above stay English: the answer is matched by a choice's position, the demo's rows and
     * --json read the English choices. */
    char *local_prompt;
    char *local_choices[LAB_QUESTION_CHOICES_MAX];
    char *local_explain;
} lab_question;

typedef struct lab_questions {
    char *path;
    int version;
    lab_question *v;
    size_t n;
} lab_questions;

#define LAB_QUESTIONS_INIT                                                                         \
    {                                                                                              \
        NULL, 0, NULL, 0                                                                           \
    }

/* Reads path; "path:line: message" on a syntax or field error (LAB_EPARSE),
 * LAB_ENOENT when there is no file. */
int lab_questions_load(const char *path, lab_questions *out, lab_err *err);
/* The chapter's rules: the version, at least LAB_QUESTIONS_MIN questions,
 * every exercise named exists in cat and is in chapter (cat may be NULL: not
 * checked).  0 or LAB_EPARSE with the first problem. */
int lab_questions_check(const lab_questions *q, const char *chapter, const lab_catalog *cat,
                        lab_err *err);
void lab_questions_release(lab_questions *q);
const lab_question *lab_questions_find(const lab_questions *q, const char *id);

struct lab_lang;
/*
 * The local_* fields from the first of lang's languages whose questions.LANG.ini beside
 * q->path is current (lab/catalog/translation.h).  A stale, broken or missing translation
 * leaves them NULL: 0, with a broken one's problem in err when note is not NULL (*note set).
 */
int lab_questions_translate(lab_questions *q, const struct lab_lang *lang, bool *note,
                            lab_err *err);
/* Every prompt and explanation, English and translated, with its figures filled in from cat
 * (lab_catalog_expand; after lab_questions_translate).  LAB_EPARSE names the file, the question
 * and the unknown figure. */
int lab_questions_fill(lab_questions *q, const lab_catalog *cat, lab_err *err);
/* What the learner reads: the translated text, or the English where there is none. */
const char *lab_question_prompt(const lab_question *q);
const char *lab_question_explain(const lab_question *q);
const char *lab_question_choice(const lab_question *q, size_t i);
/* An answer as the learner reads it: a choice (English or translated) as its translation, a
 * number or anything else as it is. */
const char *lab_question_answer_text(const lab_question *q, const char *answer);
/* The position of answer among q's choices, English or translated (case ignored); -1: none. */
int lab_question_choice_index(const lab_question *q, const char *answer);
/* 1 when answer matches q's fixed answer, 0 when not, LAB_EINVAL when the answer
 * is not one of the choices or not a number; LAB_ENOSYS when q is "measured". */
int lab_question_judge(const lab_question *q, const char *answer, lab_err *err);

#endif
