/*
 * print.c - the reports' styled lines (lab/report/lines.h) on stdout: each
 * style an SGR colour when cli->color (stdout a terminal, NO_COLOR unset or
 * empty), plain text otherwise.  Every command that prints a report, and so
 * the shell, prints it through here; and --json's objects, and the task's and
 * hints' Markdown, laid out for the terminal's width by the menu's renderer
 * (lab/menu/doc.h: one md4c layout for both front ends).
 */
#include "lab/cli/cli.h"
#include "lab/menu/doc.h"

#include "lab/util/utf8.h"

#include <cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* Markdown is laid out no wider than this, however wide the terminal: long lines read badly. */
#define MARKDOWN_MAX_WIDTH 100
/* ... and this wide into a pipe that says no width ($COLUMNS). */
#define MARKDOWN_PIPE_WIDTH 80

/* SGR parameters of each style; NULL: no colour. */
static const char *const style_sgr[LAB_TEXT_STYLE_COUNT] = {
    [LAB_TEXT_PLAIN] = NULL,
    [LAB_TEXT_BOLD] = "1",
    [LAB_TEXT_TITLE] = "1;4",
    [LAB_TEXT_GOOD] = "32",
    [LAB_TEXT_BAD] = "31",
    [LAB_TEXT_WARN] = "33",
    [LAB_TEXT_DIM] = "2",
    [LAB_TEXT_SOURCE] = "36",
    [LAB_TEXT_MARK] = "1;33",
    [LAB_TEXT_MARK_DIVERGE] = "1;31",
    [LAB_TEXT_MARK_SELECT] = "1;32",
    [LAB_TEXT_BAR] = "36",
    [LAB_TEXT_VERDICT + LAB_TONE_PASS] = "1;32",
    [LAB_TEXT_VERDICT + LAB_TONE_SLOW] = "1;33",
    [LAB_TEXT_VERDICT + LAB_TONE_FAIL] = "1;31",
    [LAB_TEXT_VERDICT + LAB_TONE_LIMIT] = "1;35",
    [LAB_TEXT_VERDICT + LAB_TONE_NO_GPU] = "1;36",
    /* the heat map's shades: background colours from cool to hot (256-colour palette) */
    [LAB_TEXT_HEAT + 0] = "48;5;21",
    [LAB_TEXT_HEAT + 1] = "48;5;27",
    [LAB_TEXT_HEAT + 2] = "48;5;33",
    [LAB_TEXT_HEAT + 3] = "48;5;39",
    [LAB_TEXT_HEAT + 4] = "48;5;45",
    [LAB_TEXT_HEAT + 5] = "48;5;226",
    [LAB_TEXT_HEAT + 6] = "48;5;220",
    [LAB_TEXT_HEAT + 7] = "48;5;214",
    [LAB_TEXT_HEAT + 8] = "48;5;208",
    [LAB_TEXT_HEAT + 9] = "48;5;196",
};
_Static_assert(LAB_TEXT_SHADES == 10, "one SGR colour per heat shade");

/* One line of len bytes, a style per byte, each run of a style in its SGR colour from sgr (of
 * nsgr styles), and a newline.  A line's text is shown, never obeyed: what a student wrote (a
 * file's name, an #error, a compiler's log of it) may hold escape sequences, which print as
 * "␛[2J" instead of clearing the screen, and invalid UTF-8 as U+FFFD (lab/util/utf8.h); the
 * colours are the styles', added here. */
static void
print_runs(const lab_cli *cli, const char *text, const unsigned char *styles, size_t len,
           const char *const *sgr, size_t nsgr)
{
    lab_buf shown = LAB_BUF_INIT;

    for (size_t i = 0; i < len;) {
        size_t j = i;
        unsigned st = styles[i];
        const char *on = st < nsgr ? sgr[st] : NULL;
        while (j < len && styles[j] == st)
            j++;
        lab_buf_reset(&shown);
        if (lab_utf8_shown(&shown, text + i, j - i, 0) < 0)
            break;
        if (on)
            printf("%s%s%s", lab_cli_sgr(cli, on), shown.buf, lab_cli_reset(cli));
        else
            fputs(shown.buf, stdout);
        i = j;
    }
    putchar('\n');
    lab_buf_release(&shown);
}

int
lab_cli_print_line(void *cli, const lab_line *line)
{
    print_runs(cli, line->text, line->styles, line->len, style_sgr, LAB_TEXT_STYLE_COUNT);
    return 0;
}

/* SGR parameters of the Markdown layout's styles; NULL: no colour. */
static const char *const doc_sgr[LAB_STYLE_COUNT] = {
    [LAB_STYLE_HEADING] = "1;4", [LAB_STYLE_STRONG] = "1",     [LAB_STYLE_EMPH] = "3",
    [LAB_STYLE_CODE] = "36",     [LAB_STYLE_KEYWORD] = "1;36", [LAB_STYLE_COMMENT] = "2",
    [LAB_STYLE_QUOTE] = "2",     [LAB_STYLE_DIM] = "2",        [LAB_STYLE_GOOD] = "32",
    [LAB_STYLE_BAD] = "31",      [LAB_STYLE_WARN] = "33",
};

int
lab_cli_width(void)
{
    struct winsize ws;
    const char *cols = getenv("COLUMNS");
    long n;

    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
    if (cols && (n = strtol(cols, NULL, 10)) > 0 && n < 10000)
        return (int)n;
    return 0;
}

int
lab_cli_print_markdown(const lab_cli *cli, const char *text, size_t len)
{
    int width = lab_cli_width() ? lab_cli_width() : MARKDOWN_PIPE_WIDTH;
    lab_doc doc = LAB_DOC_INIT;
    int rc;

    if (width > MARKDOWN_MAX_WIDTH)
        width = MARKDOWN_MAX_WIDTH;
    rc = lab_doc_markdown(&doc, text, len, width);
    for (size_t l = 0; rc == 0 && l < doc.nlines; l++)
        print_runs(cli, doc.lines[l].text, doc.lines[l].style, doc.lines[l].len, doc_sgr,
                   LAB_STYLE_COUNT);
    lab_doc_release(&doc);
    return rc;
}

void
lab_cli_print_json(struct cJSON *o)
{
    char *text = o ? cJSON_Print(o) : NULL;
    lab_buf clean = LAB_BUF_INIT;

    /* valid UTF-8 whatever a file name or a compiler's log held: cJSON copies a string's bytes
     * as they are, and one invalid byte makes the whole output unreadable as JSON */
    if (text && lab_utf8_clean(&clean, text, strlen(text)) == 0)
        puts(clean.buf);
    else
        lab_cli_error(_("out of memory: no JSON printed"));
    free(text);
    lab_buf_release(&clean);
    cJSON_Delete(o);
}
