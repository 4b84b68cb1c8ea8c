/*
 * test-translation.c - the translation files beside the English ones (lab/catalog/
 * translation.h): their names, the first line naming the English revision (current, stale,
 * missing, broken), the rules an INI translation keeps (text keys only, the English file's
 * sections), the code blocks and hint headings a Markdown translation keeps, and the
 * languages a tree has; and the catalog's local fields from them.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lab/catalog/catalog.h"
#include "lab/catalog/translation.h"
#include "lab/util/buf.h"
#include "lab/util/lang.h"
#include "lab/util/sha256.h"

static char dir[] = "/tmp/test-translation-XXXXXX";

static void
make_dir(void)
{
    cr_assert_not_null(mkdtemp(dir));
}

static void
remove_dir(void)
{
    lab_err err = LAB_ERR_INIT;
    lab_remove_tree(dir, &err);
}

/* path (under dir) with text; returns the full path (static, overwritten by the next call) */
static const char *
put(const char *path, const char *text)
{
    static char full[512];
    lab_err err = LAB_ERR_INIT;
    char *slash;

    snprintf(full, sizeof(full), "%s/%s", dir, path);
    slash = strrchr(full, '/');
    *slash = '\0';
    cr_assert_eq(lab_mkdir_p(full, 0755, &err), 0, "%s", err.msg);
    *slash = '/';
    cr_assert_eq(lab_write_file(full, text, strlen(text), &err), 0, "%s", err.msg);
    return full;
}

/* The marker line for the English text, as `sha256sum | cut -c1-12` gives it. */
static void
marker(lab_buf *b, const char *open, const char *name, const char *english, const char *close)
{
    char hex[LAB_SHA256_HEX];

    lab_sha256_hex(english, strlen(english), hex);
    lab_buf_printf(b, "%s%s @ %.12s%s\n", open, name, hex, close);
}

Test(translation, sha256_is_the_standard_one)
{
    char hex[LAB_SHA256_HEX];

    lab_sha256_hex("abc", 3, hex);
    cr_expect_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    lab_sha256_hex("", 0, hex);
    cr_expect_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    /* 56 bytes: the length goes into a second padding block */
    lab_sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, hex);
    cr_expect_str_eq(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

Test(translation, path_inserts_the_language_before_the_extension)
{
    char *p;

    cr_expect_str_eq(p = lab_translation_path("docs/warp.md", "ko"), "docs/warp.ko.md");
    free(p);
    cr_expect_str_eq(p = lab_translation_path("a.b/exercises/warp/questions.ini", "zh_CN"),
                     "a.b/exercises/warp/questions.zh_CN.ini");
    free(p);
    cr_expect_str_eq(p = lab_translation_path("README", "ko"), "README.ko");
    free(p);
}

Test(translation, current_stale_missing_broken, .init = make_dir, .fini = remove_dir)
{
    const char *english_text = "# Task\n\nWrite it.\n";
    lab_buf ko = LAB_BUF_INIT;
    lab_translation t;
    lab_err err = LAB_ERR_INIT;
    char english[512];

    snprintf(english, sizeof(english), "%s", put("ex/task.md", english_text));
    marker(&ko, "<!-- translation of ", "task.md", english_text, " -->");
    lab_buf_adds(&ko, "# 과제\n");
    put("ex/task.ko.md", ko.buf);

    cr_assert_eq(lab_translation_check(english, "ko", &t, &err), 0, "%s", err.msg);
    cr_expect_eq(t.state, LAB_TRANSLATION_CURRENT, "%s", err.msg);
    cr_expect_str_eq(t.follows, t.english);
    free(t.path);

    cr_assert_eq(lab_translation_check(english, "zh_CN", &t, &err), 0);
    cr_expect_eq(t.state, LAB_TRANSLATION_MISSING);
    free(t.path);

    put("ex/task.md", "# Task\n\nWrite it again.\n");
    cr_assert_eq(lab_translation_check(english, "ko", &t, &err), 0);
    cr_expect_eq(t.state, LAB_TRANSLATION_STALE);
    cr_expect_neq(strcmp(t.follows, t.english), 0);
    free(t.path);

    put("ex/task.ko.md", "<!-- translation of hints.md @ 0123456789ab -->\n# 과제\n");
    cr_assert_eq(lab_translation_check(english, "ko", &t, &err), 0);
    cr_expect_eq(t.state, LAB_TRANSLATION_BROKEN, "another file's name");
    cr_expect(strstr(err.msg, "task.ko.md:1: the first line must name") != NULL, "%s", err.msg);
    free(t.path);

    put("ex/task.ko.md", "<!-- translation of task.md @ 0123 -->\n");
    cr_assert_eq(lab_translation_check(english, "ko", &t, &err), 0);
    cr_expect_eq(t.state, LAB_TRANSLATION_BROKEN, "a short hash");
    free(t.path);
    lab_buf_release(&ko);
}

Test(translation, marker_len)
{
    const char *md = "<!-- translation of task.md @ 3f2a9c0d1e4b -->\n# T\n";
    const char *ini = "; translation of questions.ini @ 3f2a9c0d1e4b\n[q]\n";

    cr_expect_eq(lab_translation_marker_len(md, strlen(md)), strlen(md) - strlen("# T\n"));
    cr_expect_eq(lab_translation_marker_len(ini, strlen(ini)), strlen(ini) - strlen("[q]\n"));
    cr_expect_eq(lab_translation_marker_len("# T\n", 4), 0);
}

Test(translation, markdown_keeps_code_and_hint_headings)
{
    const char *en =
        "## Hint 1\n\nUse `t`.\n\n```c\nint t = 0; // zero\n```\n\n## Hint 2\n\nMore.\n";
    const char *good =
        "## Hint 1\n\n`t`를 쓰세요.\n\n```c\nint t = 0; // zero\n```\n\n## Hint 2\n\n더.\n";
    const char *code = "## Hint 1\n\n`t`.\n\n```c\nint t = 0; // 영\n```\n\n## Hint 2\n\n더.\n";
    const char *heads = "## 힌트 1\n\n`t`.\n\n```c\nint t = 0; // zero\n```\n";
    lab_strvec p = LAB_STRVEC_INIT;

    cr_assert_eq(
        lab_translation_compare_markdown(en, strlen(en), good, strlen(good), "h.ko.md", true, &p),
        0);
    cr_expect_eq(p.n, 0, "%s", p.n ? p.v[0] : "");
    cr_assert_eq(
        lab_translation_compare_markdown(en, strlen(en), code, strlen(code), "h.ko.md", true, &p),
        0);
    cr_assert_eq(p.n, 1);
    cr_expect_str_eq(p.v[0],
                     "h.ko.md:5: code block 1 differs from the English file's (code is never "
                     "translated)");
    lab_strvec_release(&p);
    cr_assert_eq(
        lab_translation_compare_markdown(en, strlen(en), heads, strlen(heads), "h.ko.md", true, &p),
        0);
    cr_assert_eq(p.n, 2, "one hint fewer, and a heading translated");
    cr_expect_str_eq(p.v[0], "h.ko.md:0: 1 hints where the English file has 2");
    cr_expect(strstr(p.v[1], "heading '## 힌트 1' should stay '## Hint 1'") != NULL, "%s", p.v[1]);
    lab_strvec_release(&p);
}

static const char *const title_keys[] = { "title", NULL };

Test(translation, ini_holds_only_text_keys_of_english_sections, .init = make_dir,
     .fini = remove_dir)
{
    lab_translated_ini t = LAB_TRANSLATED_INI_INIT;
    const lab_translated_key *k;
    lab_err err = LAB_ERR_INIT;
    char english[512], ko[512];

    snprintf(english, sizeof(english), "%s",
             put("c/chapter.ini", "[chapter]\ntitle = Warp execution\norder = 10\n"));
    snprintf(ko, sizeof(ko), "%s",
             put("c/chapter.ko.ini", "; translation of chapter.ini @ 000000000000\n[chapter]\n"
                                     "title = warp 실행\n    둘째 줄\n"));
    cr_assert_eq(lab_translated_ini_read(ko, english, title_keys, &t, &err), 0, "%s", err.msg);
    cr_assert_not_null(k = lab_translated_ini_find(&t, "chapter", "title"));
    cr_expect_str_eq(k->value, "warp 실행\n둘째 줄", "a continuation line joins with a newline");
    lab_translated_ini_release(&t);

    put("c/chapter.ko.ini", "[chapter]\ntitle = warp 실행\norder = 3\n");
    cr_expect_eq(lab_translated_ini_read(ko, english, title_keys, &t, &err), LAB_EPARSE);
    cr_expect(strstr(err.msg, "chapter.ko.ini:3: 'order' is not translated") != NULL, "%s",
              err.msg);

    put("c/chapter.ko.ini", "[chapter]\ntitle = warp 실행\n[extra]\ntitle = x\n");
    cr_expect_eq(lab_translated_ini_read(ko, english, title_keys, &t, &err), LAB_EPARSE);
    cr_expect(strstr(err.msg, "chapter.ko.ini:4: section [extra] is not in the English file") !=
                  NULL,
              "%s", err.msg);
}

Test(translation, languages_of_a_tree, .init = make_dir, .fini = remove_dir)
{
    lab_strvec langs = LAB_STRVEC_INIT;
    lab_err err = LAB_ERR_INIT;

    put("docs/warp.md", "# Warp\n");
    put("docs/warp.zh_CN.md", "x");
    put("exercises/warp/chapter.ini", "[chapter]\n");
    put("exercises/warp/chapter.ko.ini", "x");
    put("exercises/warp/notes.v2.md", "x"); /* no English notes.md: no language */
    put("exercises/warp/x/task.md", "x");
    put("exercises/warp/x/task.ko.md", "x");
    cr_assert_eq(lab_translation_languages(dir, &langs, &err), 0, "%s", err.msg);
    cr_assert_eq(langs.n, 2);
    cr_expect_str_eq(langs.v[0], "ko");
    cr_expect_str_eq(langs.v[1], "zh_CN");
    lab_strvec_release(&langs);
}

/* A one-chapter catalog with its Korean title, task and hints; English for the rest. */
Test(translation, catalog_local_fields, .init = make_dir, .fini = remove_dir)
{
    const char *chapter = "[chapter]\ntitle = Warp execution\norder = 1\n";
    const char *hints = "## Hint 1\n\nOne.\n\n## Hint 2\n\nTwo.\n";
    const char *task = "# Task\n";
    lab_buf b = LAB_BUF_INIT;
    lab_catalog *cat = NULL;
    lab_err err = LAB_ERR_INIT;
    const lab_exercise *ex;
    const lab_chapter *ch;
    lab_lang lang;
    char path[600];

    put("exercises/warp/chapter.ini", chapter);
    put("exercises/warp/ids/exercise.ini",
        "[exercise]\nid = warp/ids\nchapter = warp\ntitle = Thread ids\nkernel = k\n"
        "family = warp-ids\nsolution = solutions/warp/ids.cu\nbaseline = cpu\nsizes = 1\n");
    put("exercises/warp/ids/starter.cu", "\n");
    put("solutions/warp/ids.cu", "\n");
    put("exercises/warp/ids/task.md", task);
    put("exercises/warp/ids/hints.md", hints);
    marker(&b, "; translation of ", "chapter.ini", chapter, "");
    lab_buf_adds(&b, "[chapter]\ntitle = warp 실행\n");
    put("exercises/warp/chapter.ko.ini", b.buf);
    lab_buf_reset(&b);
    marker(&b, "<!-- translation of ", "hints.md", hints, " -->");
    lab_buf_adds(&b, "## Hint 1\n\n하나.\n\n## Hint 2\n\n둘.\n");
    put("exercises/warp/ids/hints.ko.md", b.buf);
    put("exercises/warp/ids/task.ko.md",
        "<!-- translation of task.md @ 000000000000 -->\n# 과제\n");

    lab_lang_parse("ko_KR.UTF-8", &lang);
    cr_assert_eq(lab_catalog_load_lang(dir, &lang, &cat, &err), 0, "%s", err.msg);
    cr_assert_not_null(ex = lab_catalog_find(cat, "warp/ids"));
    ch = lab_catalog_chapter(cat, 0);
    cr_expect_str_eq(ch->local_title, "warp 실행");
    cr_expect_str_eq(ch->title, "Warp execution", "the English title stays for --json");
    cr_expect_str_eq(ex->local_title, "Thread ids", "no exercise.ko.ini: English");
    cr_expect_str_eq(ex->local_hints[1], "둘.");
    cr_expect_str_eq(ex->hints[1], "Two.");
    snprintf(path, sizeof(path), "%s/exercises/warp/ids/task.md", dir);
    cr_expect_str_eq(ex->local_task, path, "a stale task: English");
    cr_expect_str_eq(ex->translation_note, "task.ko.md translates an older task.md: English shown");
    cr_expect_str_eq(lab_catalog_language(cat), "ko");
    lab_catalog_free(cat);

    cr_assert_eq(lab_catalog_load(dir, &cat, &err), 0, "%s", err.msg);
    ch = lab_catalog_chapter(cat, 0);
    cr_expect_str_eq(ch->local_title, "Warp execution", "loaded in English");
    cr_expect_null(lab_catalog_language(cat));
    lab_catalog_free(cat);
    lab_buf_release(&b);
}
