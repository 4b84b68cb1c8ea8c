/*
 * print.c - the reports' styled lines (lab/report/lines.h) on stdout: each
 * style an SGR colour when cli->color (stdout a terminal, NO_COLOR unset or
 * empty), plain text otherwise.  Every command that prints a report, and so
 * the shell, prints it through here; and --json's objects.
 */
#include "lab/cli/cli.h"

#include <cJSON.h>
#include <stdlib.h>

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

int
lab_cli_print_line(void *cli, const lab_line *line)
{
    const lab_cli *c = cli;

    for (size_t i = 0; i < line->len;) {
        size_t j = i;
        unsigned st = line->styles[i];
        const char *sgr = st < LAB_TEXT_STYLE_COUNT ? style_sgr[st] : NULL;
        while (j < line->len && line->styles[j] == st)
            j++;
        if (sgr)
            printf("%s%.*s%s", lab_cli_sgr(c, sgr), (int)(j - i), line->text + i, lab_cli_reset(c));
        else
            printf("%.*s", (int)(j - i), line->text + i);
        i = j;
    }
    putchar('\n');
    return 0;
}

void
lab_cli_print_json(struct cJSON *o)
{
    char *text = o ? cJSON_Print(o) : NULL;

    if (text)
        puts(text);
    else
        lab_cli_error("out of memory: no JSON printed");
    free(text);
    cJSON_Delete(o);
}
