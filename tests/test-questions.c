/*
 * test-questions.c - "predict before you run": every chapter of the catalog
 * has at least two valid questions (exercises/<chapter>/questions.ini), and
 * bad files are refused with file:line.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/util/buf.h"
#include "lab/catalog/catalog.h"
#include "lab/catalog/questions.h"

Test(questions, every_chapter_has_valid_questions)
{
    lab_catalog *cat = NULL;
    lab_err err = LAB_ERR_INIT;

    cr_assert_eq(lab_catalog_load(".", &cat, &err), 0, "%s", err.msg);
    cr_assert_gt(lab_catalog_chapter_count(cat), 0);
    for (size_t i = 0; i < lab_catalog_chapter_count(cat); i++) {
        const lab_chapter *ch = lab_catalog_chapter(cat, i);
        lab_buf path = LAB_BUF_INIT;
        lab_questions q = LAB_QUESTIONS_INIT;
        lab_buf_printf(&path, "exercises/%s/questions.ini", ch->id);
        cr_expect_eq(lab_questions_load(path.buf, &q, &err), 0, "chapter %s: %s", ch->id, err.msg);
        cr_expect_eq(lab_questions_check(&q, ch->id, cat, &err), 0, "chapter %s: %s", ch->id,
                     err.msg);
        lab_questions_release(&q);
        lab_buf_release(&path);
    }
    lab_catalog_free(cat);
}

static int
load_text(const char *text, lab_questions *q, lab_err *err)
{
    char path[] = "/tmp/test-questions-XXXXXX";
    int fd = mkstemp(path), rc;

    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    rc = lab_questions_load(path, q, err);
    if (rc == 0)
        rc = lab_questions_check(q, "ch", NULL, err);
    unlink(path);
    return rc;
}

#define HEAD "[questions]\nversion = 1\n"
#define Q1 "[question a]\nkind = number\nprompt = p?\nanswer = 4\nexplain = e.\n"

Test(questions, bad_files_name_file_and_line)
{
    static const struct {
        const char *text, *want;
    } cases[] = {
        { HEAD Q1 "[question b]\nkind = choice\nprompt = p?\nchoices = x | y\nanswer = z\n"
                  "explain = e.\n",
          ":9: question 'b': answer 'z' is not one of its choices" },
        { HEAD Q1 "[question b]\nkind = maybe\n", ":9: kind must be choice or number" },
        { HEAD Q1 "[question b]\ncolour = red\n", ":9: unknown key 'colour'" },
        { HEAD Q1 "[quiz]\nx = 1\n", "unknown section 'quiz'" },
        { HEAD Q1, ":0: a chapter asks at least 2 questions, this has 1" },
        { "[questions]\nversion = 2\n" Q1 "[question b]\nkind = number\nprompt = p\nanswer = 1\n"
          "explain = e\n",
          ":0: needs 'version = 1'" },
        { HEAD Q1 "[question b]\nkind = number\nprompt = p\nanswer = many\nexplain = e\n",
          "a number or 'measured' as its answer" },
        { HEAD Q1 "[question b]\nkind = number\nprompt = p\nanswer = measured\nexplain = e\n",
          "needs 'measure = demo CHAPTER'" },
        { HEAD Q1 "[question b]\nkind = number\nprompt = p\nanswer = 2\n",
          "needs prompt, answer and explain" },
        { HEAD Q1 "[question b]\nkind = number\nprompt = p\nanswer = 2\nexplain = e\n"
                  "exercise = other/x\n",
          "'other/x' is no exercise of ch" },
    };

    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        lab_questions q = LAB_QUESTIONS_INIT;
        lab_err err = LAB_ERR_INIT;
        cr_expect_eq(load_text(cases[i].text, &q, &err), LAB_EPARSE, "case %zu", i);
        cr_expect(strstr(err.msg, cases[i].want), "case %zu: '%s' lacks '%s'", i, err.msg,
                  cases[i].want);
        lab_questions_release(&q);
    }
}

Test(questions, judging_answers)
{
    lab_questions q = LAB_QUESTIONS_INIT;
    lab_err err = LAB_ERR_INIT;

    cr_assert_eq(load_text(HEAD Q1 "[question b]\nkind = choice\nprompt = p?\n"
                                   "choices = Yes | no, slower\nanswer = no, slower\n"
                                   "explain = long\n  and continued.\n"
                                   "[question c]\nkind = number\nprompt = p\nanswer = measured\n"
                                   "measure = demo ch\nexplain = e\n",
                           &q, &err),
                 0, "%s", err.msg);
    cr_expect_str_eq(lab_questions_find(&q, "b")->explain, "long and continued.");
    cr_expect_eq(lab_question_judge(lab_questions_find(&q, "a"), "4", &err), 1);
    cr_expect_eq(lab_question_judge(lab_questions_find(&q, "a"), "4.3", &err), 1, "within 10 %%");
    cr_expect_eq(lab_question_judge(lab_questions_find(&q, "a"), "5", &err), 0);
    cr_expect_eq(lab_question_judge(lab_questions_find(&q, "a"), "four", &err), LAB_EINVAL);
    cr_expect_eq(lab_question_judge(lab_questions_find(&q, "b"), "NO, SLOWER", &err), 1);
    cr_expect_eq(lab_question_judge(lab_questions_find(&q, "b"), "yes", &err), 0);
    cr_expect_eq(lab_question_judge(lab_questions_find(&q, "b"), "maybe", &err), LAB_EINVAL);
    cr_expect_eq(lab_question_judge(lab_questions_find(&q, "c"), "1", &err), LAB_ENOSYS);
    lab_questions_release(&q);
}
