/*
 * test-doc.c - lab/menu/doc: Markdown laid out by md4c into styled lines
 * (headings, paragraphs wrapped at the width, lists, quotes, code blocks
 * with CUDA keywords highlighted, tables with padded columns).
 */
#include "lab/menu/doc.h"

#include <criterion/criterion.h>
#include <locale.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static lab_doc doc;

static void
teardown(void)
{
    lab_doc_release(&doc);
}

static void
layout(const char *md, int width)
{
    cr_assert_eq(lab_doc_markdown(&doc, md, strlen(md), width), 0);
}

/* The line holding text, or -1. */
static long
find(const char *text)
{
    for (size_t i = 0; i < doc.nlines; i++)
        if (strstr(doc.lines[i].text, text))
            return (long)i;
    return -1;
}

static int
style_at(long line, const char *text)
{
    const lab_doc_line *l = &doc.lines[line];
    return l->style[strstr(l->text, text) - l->text];
}

TestSuite(doc, .fini = teardown);

Test(doc, heading_underlined_and_styled)
{
    layout("# Parallel reduction\n\nText.\n", 80);
    cr_assert_str_eq(doc.lines[0].text, "Parallel reduction");
    cr_assert_str_eq(doc.lines[1].text, "==================");
    cr_assert_eq(doc.lines[0].style[0], LAB_STYLE_HEADING);
    cr_assert_str_eq(doc.lines[2].text, "");
    cr_assert_str_eq(doc.lines[3].text, "Text.");
}

Test(doc, paragraph_wrapped_at_width)
{
    layout("one two three four five six seven eight nine ten\n", 20);
    for (size_t i = 0; i < doc.nlines; i++)
        cr_assert_leq(strlen(doc.lines[i].text), 20, "line %zu: '%s'", i, doc.lines[i].text);
    cr_assert_str_eq(doc.lines[0].text, "one two three four");
    cr_assert_str_eq(doc.lines[1].text, "five six seven eight");
    cr_assert_str_eq(doc.lines[2].text, "nine ten");
}

Test(doc, inline_styles)
{
    layout("a **bold** and `code` and *emph*\n", 80);
    cr_assert_str_eq(doc.lines[0].text, "a bold and code and emph");
    cr_assert_eq(style_at(0, "bold"), LAB_STYLE_STRONG);
    cr_assert_eq(style_at(0, "code"), LAB_STYLE_CODE);
    cr_assert_eq(style_at(0, "emph"), LAB_STYLE_EMPH);
    cr_assert_eq(style_at(0, "a "), LAB_STYLE_TEXT);
}

Test(doc, lists_bulleted_and_numbered)
{
    layout("- first\n- second\n\n3. three\n4. four\n", 80);
    cr_assert_neq(find("  - first"), -1);
    cr_assert_neq(find("  - second"), -1);
    cr_assert_neq(find("3.  three"), -1);
    cr_assert_neq(find("4.  four"), -1);
}

Test(doc, code_block_highlighted)
{
    long l;

    layout("```c\n__global__ void k(int *g)\n{\n    __syncthreads(); // wait\n}\n```\n", 80);
    l = find("__global__ void k(int *g)");
    cr_assert_neq(l, -1);
    cr_assert_str_eq(doc.lines[l].text, "    __global__ void k(int *g)");
    cr_assert_eq(style_at(l, "__global__"), LAB_STYLE_KEYWORD);
    cr_assert_eq(style_at(l, "void"), LAB_STYLE_KEYWORD);
    cr_assert_eq(style_at(l, "k("), LAB_STYLE_CODE);
    l = find("__syncthreads");
    cr_assert_eq(style_at(l, "__syncthreads"), LAB_STYLE_KEYWORD);
    cr_assert_eq(style_at(l, "// wait"), LAB_STYLE_COMMENT);
}

Test(doc, code_block_not_wrapped)
{
    layout("```\nint a_very_long_name_that_is_wider_than_the_screen = 0;\n```\n", 20);
    cr_assert_neq(find("int a_very_long_name_that_is_wider_than_the_screen = 0;"), -1);
}

Test(doc, table_columns_padded)
{
    layout("| kernel | time |\n|---|---|\n| reduceNeighbored | 217.6 |\n| less | 120.2 |\n", 80);
    cr_assert_str_eq(doc.lines[0].text, "  kernel           | time ");
    cr_assert_eq(doc.lines[0].style[2], LAB_STYLE_HEADING);
    cr_assert_str_eq(doc.lines[1].text, "  -----------------+------");
    cr_assert_str_eq(doc.lines[2].text, "  reduceNeighbored | 217.6");
    cr_assert_str_eq(doc.lines[3].text, "  less             | 120.2");
}

Test(doc, quote_prefixed)
{
    layout("> careful here\n", 80);
    cr_assert_str_eq(doc.lines[0].text, "| careful here");
    cr_assert_eq(doc.lines[0].style[0], LAB_STYLE_QUOTE);
}

Test(doc, width_counts_display_columns)
{
    cr_assert_not_null(setlocale(LC_CTYPE, "C.UTF-8"));
    cr_assert_eq(lab_doc_width("1.8\xc3\x97", 5), 4); /* "1.8×" */
    cr_assert_eq(lab_doc_width("병렬", 6), 4);        /* Hangul: two columns each */
}

Test(doc, chinese_wraps_at_the_width_without_spaces)
{
    const char *src =
        "用 shuffle 处理最后一个 warp 时，每个 lane 从另一个 lane 的寄存器里直接读取数值，"
        "不经过 shared memory，也不需要 __syncthreads()。";
    lab_doc d = LAB_DOC_INIT;

    cr_assert_not_null(setlocale(LC_CTYPE, "C.UTF-8"));
    cr_assert_eq(lab_doc_markdown(&d, src, strlen(src), 30), 0);
    cr_expect_gt(d.nlines, 2, "a long Chinese paragraph is wrapped");
    for (size_t i = 0; i < d.nlines; i++)
        cr_expect_leq(lab_doc_width(d.lines[i].text, d.lines[i].len), 30, "line %zu: '%s'", i,
                      d.lines[i].text);
    lab_doc_release(&d);
}

/* Whether w stands in text as a whole word, between spaces or the ends. */
static bool
is_word_of(const char *text, const char *w)
{
    size_t n = strlen(w);

    for (const char *at = strstr(text, w); at; at = strstr(at + 1, w))
        if ((at == text || at[-1] == ' ') && (!at[n] || at[n] == ' '))
            return true;
    return false;
}

Test(doc, korean_wraps_at_its_spaces_only)
{
    const char *src = "block의 모양이 warp에 어떻게 나뉘는지 알아야 occupancy와 divergence를 "
                      "이해할 수 있습니다. 이 문단은 화면 폭에 맞춰 줄이 바뀌는지 봅니다.";
    lab_doc d = LAB_DOC_INIT;

    cr_assert_not_null(setlocale(LC_CTYPE, "C.UTF-8"));
    cr_assert_eq(lab_doc_markdown(&d, src, strlen(src), 30), 0);
    cr_expect_gt(d.nlines, 2);
    for (size_t i = 0; i < d.nlines; i++) {
        char *line = strdup(d.lines[i].text), *save = NULL;
        cr_expect_leq(lab_doc_width(d.lines[i].text, d.lines[i].len), 30);
        for (char *w = strtok_r(line, " ", &save); w; w = strtok_r(NULL, " ", &save))
            cr_expect(is_word_of(src, w), "line %zu: '%s' is not a whole word of the text", i, w);
        free(line);
    }
    lab_doc_release(&d);
}

Test(doc, a_line_break_between_hanzi_joins_them_without_a_space)
{
    cr_assert_not_null(setlocale(LC_CTYPE, "C.UTF-8"));
    /* a source line broken after Chinese punctuation, between Hanzi, and before a Latin word */
    layout(
        "这是第一章。\n各章沿着笔记展开，\n重做其中的\nkernel 实验。\nKorean 한국어\n문장입니다.\n",
        80);
    cr_expect_geq(find("这是第一章。各章沿着笔记展开，重做其中的 kernel 实验。"), 0,
                  "Hanzi on both sides of a break join directly: '%s'", doc.lines[0].text);
    cr_expect_geq(find("Korean 한국어 문장입니다."), 0, "Hangul is written with spaces: '%s'",
                  doc.lines[0].text);
}

Test(doc, translation_first_line_not_shown)
{
    const char *src = "<!-- translation of task.md @ 3f2a9c0d1e4b -->\n# 과제\n";
    lab_doc d = LAB_DOC_INIT;

    cr_assert_eq(lab_doc_markdown(&d, src, strlen(src), 60), 0);
    for (size_t i = 0; i < d.nlines; i++)
        cr_expect_null(strstr(d.lines[i].text, "translation of"), "line %zu: %s", i,
                       d.lines[i].text);
    lab_doc_release(&d);
}

Test(doc, the_lab_chapter_lays_out)
{
    const char *src = getenv("CUDALAB_DATADIR_TEST");
    char path[4096], buf[1 << 16];
    FILE *fp;
    size_t n;

    snprintf(path, sizeof(path), "%s/docs/reduction.md", src ? src : ".");
    fp = fopen(path, "r");
    cr_assert_not_null(fp, "cannot open %s", path);
    n = fread(buf, 1, sizeof(buf), fp);
    fclose(fp);
    cr_assert_eq(lab_doc_markdown(&doc, buf, n, 80), 0);
    cr_assert_gt(doc.nlines, 100);
    cr_assert_neq(find("Parallel reduction"), -1);
    for (size_t i = 0; i < doc.nlines; i++)
        if (doc.lines[i].style[0] != LAB_STYLE_CODE && doc.lines[i].style[0] != LAB_STYLE_KEYWORD &&
            doc.lines[i].style[0] != LAB_STYLE_COMMENT &&
            doc.lines[i].style[0] != LAB_STYLE_TABLE && doc.lines[i].style[0] != LAB_STYLE_HEADING)
            cr_assert_leq(lab_doc_width(doc.lines[i].text, doc.lines[i].len), 80, "line %zu: %s", i,
                          doc.lines[i].text);
}
