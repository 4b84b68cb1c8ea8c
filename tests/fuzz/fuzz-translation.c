/*
 * fuzz-translation.c - the readers of a translation (lab/catalog/translation.c, and
 * lab_questions_translate): any text as questions.ko.ini beside a fixed English questions.ini,
 * and as hints.ko.md against a fixed English hints.md, read, checked and applied or refused
 * with a message.  The input's first line is kept when it is a marker; otherwise one naming
 * the English file's revision is put before it, so that the readers past the marker are
 * reached.  Seeds: the course's own questions.*.ini and hints.*.md.
 */
#include "tests/fuzz/fuzz.h"
#include "lab/catalog/questions.h"
#include "lab/catalog/translation.h"
#include "lab/util/buf.h"
#include "lab/util/lang.h"
#include "lab/util/sha256.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char english_questions[] =
    "[questions]\nversion = 1\n\n[question q1]\nkind = choice\nprompt = Which?\n"
    "choices = a | b | c\nanswer = b\nexplain = Because.\n\n[question q2]\nkind = number\n"
    "prompt = How many?\nanswer = 3\ntolerance = 0\nexplain = Three\n    of them.\n";
static const char english_hints[] =
    "## Hint 1\n\nOne `t`.\n\n```c\nint t = 0;\n```\n\n## Hint 2\n\nTwo.\n";

static const char *const question_keys[] = { "prompt", "explain", "choices", NULL };

/* data as a translation of english: its own first line if a marker, else a current one */
static const char *
write_translation(const char *rel, const char *english, const char *name, const char *open,
                  const char *close, const uint8_t *data, size_t size)
{
    char hex[LAB_SHA256_HEX];
    lab_buf b = LAB_BUF_INIT;
    const char *path;

    if (!lab_translation_marker_len((const char *)data, size)) {
        lab_sha256_hex(english, strlen(english), hex);
        lab_buf_printf(&b, "%s%s @ %.12s%s\n", open, name, hex, close);
    }
    lab_buf_add(&b, data, size);
    path = fuzz_write(rel, (const uint8_t *)b.buf, b.len);
    lab_buf_release(&b);
    return path;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char english[4096];
    lab_err err = LAB_ERR_INIT;
    lab_translation t;
    lab_translated_ini ini;
    lab_questions q;
    lab_strvec problems = LAB_STRVEC_INIT;
    lab_lang lang;
    const char *path;
    bool note;

    snprintf(
        english, sizeof(english), "%s",
        fuzz_write("questions.ini", (const uint8_t *)english_questions, strlen(english_questions)));
    path = write_translation("questions.ko.ini", english_questions, "questions.ini",
                             "; translation of ", "", data, size);
    if (lab_translation_check(english, "ko", &t, &err) < 0)
        abort(); /* the English file is there */
    free(t.path);
    if (lab_translated_ini_read(path, english, question_keys, &ini, &err) == 0)
        lab_translated_ini_release(&ini);
    else if (!err.msg[0])
        abort(); /* a refusal says why */
    if (lab_questions_load(english, &q, &err) < 0)
        abort();
    lab_lang_parse("ko", &lang);
    if (lab_questions_translate(&q, &lang, &note, &err) < 0)
        abort(); /* only memory can fail it */
    for (size_t i = 0; i < q.n; i++)
        for (size_t c = 0; c < q.v[i].nchoices; c++)
            if (!lab_question_choice(&q.v[i], c))
                abort();
    lab_questions_release(&q);

    path = write_translation("hints.ko.md", english_hints, "hints.md", "<!-- translation of ",
                             " -->", data, size);
    if (lab_translation_compare_markdown(english_hints, strlen(english_hints), (const char *)data,
                                         size, path, true, &problems) < 0)
        abort();
    lab_strvec_release(&problems);
    return 0;
}
