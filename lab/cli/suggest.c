/*
 * suggest.c - "did you mean": the names nearest to a mistyped word, by edit distance
 * (Levenshtein: insertions, deletions and substitutions, one each), for the messages about
 * an unknown command (main.c, cmd-table.c, cmd-help.c) and an unknown exercise
 * (cmd-table.c).  As git's help.c (`help_unknown_cmd`) does with its command list.
 */
#include "lab/cli/cli.h"

#include <string.h>

/* Names longer than this are nobody's typo of a command or an exercise id. */
#define SUGGEST_MAX_LEN 128
/* How many names a suggestion offers at most. */
#define SUGGEST_MAX 3

/* The edit distance between a and b; SIZE_MAX when either is longer than SUGGEST_MAX_LEN. */
static size_t
distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), row[SUGGEST_MAX_LEN + 1];

    if (la > SUGGEST_MAX_LEN || lb > SUGGEST_MAX_LEN)
        return SIZE_MAX;
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0]; /* the row above, one column to the left */
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t best = diag + (a[i - 1] != b[j - 1]);
            diag = row[j];
            if (row[j] + 1 < best)
                best = row[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
        }
    }
    return row[lb];
}

/* How far word is from name: from the whole name, or from its part after the last '/'
 * ("neighbored-les" is near "reduction/neighbored-less"). */
static size_t
distance_to(const char *word, const char *name)
{
    const char *tail = strrchr(name, '/');
    size_t d = distance(word, name), dt;

    if (tail && (dt = distance(word, tail + 1)) < d)
        return dt;
    return d;
}

void
lab_cli_suggest(const char *word, lab_cli_name_fn *name_at, const void *arg, lab_buf *out)
{
    size_t near = strlen(word) / 3 > 2 ? strlen(word) / 3 : 2, best = SIZE_MAX, shown = 0;
    const char *name;

    for (size_t i = 0; (name = name_at(arg, i)); i++) {
        size_t d = distance_to(word, name);
        if (d < best)
            best = d;
    }
    if (best > near)
        return;
    for (size_t i = 0; (name = name_at(arg, i)) && shown < SUGGEST_MAX; i++)
        if (distance_to(word, name) == best)
            lab_buf_printf(out, "%s'%s'", shown++ ? ", " : "", name);
}

int
lab_cli_unknown(const lab_cli *cli, const char *what, const char *word, lab_cli_name_fn *name_at,
                const void *arg, const char *listing)
{
    lab_buf near = LAB_BUF_INIT;

    lab_cli_suggest(word, name_at, arg, &near);
    if (near.len)
        lab_cli_error(_("unknown %s '%s'; did you mean %s? (%s%s)"), _(what), word, near.buf,
                      lab_cli_prog(cli), _(listing));
    else
        lab_cli_error(_("unknown %s '%s' (%s%s)"), _(what), word, lab_cli_prog(cli), _(listing));
    lab_buf_release(&near);
    return LAB_EXIT_ERROR;
}

static const char *
command_name(const void *arg, size_t i)
{
    (void)arg;
    return i < lab_cmd_count ? lab_cmds[i]->name : NULL;
}

int
lab_cli_unknown_command(const lab_cli *cli, const char *name)
{
    return lab_cli_unknown(cli, N_("command"), name, command_name, NULL,
                           N_("help lists the commands"));
}
