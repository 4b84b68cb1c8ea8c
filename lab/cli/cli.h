/*
 * cli.h - the command table of the cudalab CLI, and the arguments each command declares.
 *
 * One lab_cmd per file (cmd-*.c), collected in lab_cmds[] (cmd-table.c).  A command
 * declares its positional arguments and its options (lab_cli_param); from those one
 * parser (args.c) reads every command line, of the CLI and of the shell, and
 * `cudalab --help`, `cudalab help CMD`, the usage in error messages, the man page and
 * the bash, zsh and shell completions are made (the generators read
 * `cudalab --dump-commands`).
 *
 * The order of calls: main() (or the shell) finds the command, lab_cli_args_read()
 * parses and checks its words (a usage error is one line on stderr naming the command),
 * then the command's run() reads the parsed lab_cli_args and returns the process exit
 * status: 0 pass / success, 1 any other verdict, 2 usage or lab error.
 */
#ifndef LAB_CLI_CLI_H
#define LAB_CLI_CLI_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lab/grade/grade.h"
#include "lab/grade/work.h"
#include "lab/report/lines.h"
#include "lab/util/buf.h"
#include "lab/util/i18n.h"

#define LAB_EXIT_OK 0
#define LAB_EXIT_VERDICT 1
#define LAB_EXIT_ERROR 2

/* What an argument's or an option's value is: how it is checked and how it completes. */
typedef enum lab_cli_type {
    LAB_CLI_FLAG,     /* an option without a value */
    LAB_CLI_NUMBER,   /* a whole number from min to max, checked by the parser */
    LAB_CLI_STRING,   /* any text */
    LAB_CLI_EXERCISE, /* an exercise id, CHAPTER/EXERCISE (the command looks it up) */
    LAB_CLI_CHAPTER,  /* a chapter id */
    LAB_CLI_COMMAND,  /* the name of a command of this table */
    LAB_CLI_SOURCE,   /* a kernel file, .cu */
    LAB_CLI_FILE,     /* any file or folder */
    LAB_CLI_DIR,      /* a folder */
    LAB_CLI_CHOICE,   /* one of choices, checked by the parser */
    LAB_CLI_TYPE_COUNT
} lab_cli_type;

/* How often an argument (or an option) may be given. */
typedef enum lab_cli_occurs {
    LAB_CLI_OPTIONAL, /* at most once (an option given again: its last value counts) */
    LAB_CLI_REQUIRED, /* exactly once */
    LAB_CLI_REPEATED, /* once or more: a command's last positional argument only */
    LAB_CLI_ANY,      /* any number of times, none included */
    LAB_CLI_OCCURS_COUNT
} lab_cli_occurs;

/* One positional argument or one option of a command.  A command's lists end with an
 * entry whose name is NULL. */
typedef struct lab_cli_param {
    const char *name;           /* positional: as shown, "EXERCISE"; option: "seed" for --seed */
    char short_name;            /* option: its one-letter form (-x), or 0 */
    lab_cli_type type;          /* what the value is; LAB_CLI_FLAG: an option with none */
    const char *metavar;        /* option: its value as shown, "N"; NULL: a flag, or the choices */
    lab_cli_occurs occurs;      /* how often it is given */
    const char *help;           /* one line */
    const char *const *choices; /* LAB_CLI_CHOICE: the values allowed, NULL-terminated */
    uint64_t min, max;          /* LAB_CLI_NUMBER: the range; max 0: no upper bound */
} lab_cli_param;

/* Declarations on one line each, as git's parse-options.h OPT_BOOL and friends (a list of
 * choices is a named NULL-terminated array: a braced list would split a macro argument). */
#define LAB_CLI_ARG(name_, type_, occurs_, help_)                                                  \
    {                                                                                              \
        .name = (name_), .type = (type_), .occurs = (occurs_), .help = (help_)                     \
    }
#define LAB_CLI_OPT(name_, help_)                                                                  \
    {                                                                                              \
        .name = (name_), .help = (help_)                                                           \
    }
#define LAB_CLI_OPT_VALUE(name_, type_, metavar_, help_)                                           \
    {                                                                                              \
        .name = (name_), .type = (type_), .metavar = (metavar_), .help = (help_)                   \
    }
/* An option with a value that must be given (LAB_CLI_REQUIRED) or may be given often. */
#define LAB_CLI_OPT_OCCURS(name_, type_, metavar_, occurs_, help_)                                 \
    {                                                                                              \
        .name = (name_), .type = (type_), .metavar = (metavar_), .occurs = (occurs_),              \
        .help = (help_)                                                                            \
    }
/* A positional argument that is one of choices. */
#define LAB_CLI_ARG_CHOICE(name_, occurs_, choices_, help_)                                        \
    {                                                                                              \
        .name = (name_), .type = LAB_CLI_CHOICE, .occurs = (occurs_), .choices = (choices_),       \
        .help = (help_)                                                                            \
    }
#define LAB_CLI_OPT_NUMBER(name_, metavar_, min_, max_, help_)                                     \
    {                                                                                              \
        .name = (name_), .type = LAB_CLI_NUMBER, .metavar = (metavar_), .min = (min_),             \
        .max = (max_), .help = (help_)                                                             \
    }
#define LAB_CLI_OPT_CHOICE(name_, metavar_, choices_, help_)                                       \
    {                                                                                              \
        .name = (name_), .type = LAB_CLI_CHOICE, .metavar = (metavar_), .choices = (choices_),     \
        .help = (help_)                                                                            \
    }
#define LAB_CLI_END                                                                                \
    {                                                                                              \
        0                                                                                          \
    }

/* One word of a command line, parsed: an option with its value, or a positional. */
typedef struct lab_cli_word {
    const lab_cli_param *opt; /* the option; NULL: a positional argument */
    const lab_cli_param *arg; /* a positional's declaration (after lab_cli_args_check) */
    const char *value;        /* the option's value (NULL for a flag) or the positional */
    uint64_t number;          /* the value, when it is a LAB_CLI_NUMBER */
} lab_cli_word;

struct lab_cmd;
struct cJSON;

/* A command line parsed against its command's declarations.  The words point into the
 * argv given to the parser, which must outlive it; lab_cli_args_release frees the rest. */
typedef struct lab_cli_args {
    const struct lab_cmd *cmd;
    lab_cli_word *v; /* options and positionals, in the order given */
    size_t n;
    size_t npos; /* how many of them are positionals */
    bool help;   /* --help or -h was given: the rest is not parsed */
} lab_cli_args;

typedef struct lab_cli {
    lab *lab;               /* NULL only for a without_lab command when lab_open failed */
    const char *open_error; /* why lab_open failed, then */
    bool json;              /* --json: machine-readable output */
    bool color;             /* stdout is a terminal and NO_COLOR is unset or empty */
    bool tty_err;
    /* The shell's Ctrl-C: when it becomes nonzero, grade and watch stop (no child is left);
     * NULL in the CLI, where Ctrl-C ends the program and its children. */
    const volatile sig_atomic_t *cancel;
    bool shell; /* the commands run in the shell: what they suggest is typed without "cudalab " */
} lab_cli;

/* Who a command is for: `cudalab --help` and the man page list the groups apart. */
typedef enum lab_cli_group {
    LAB_CLI_STUDY, /* the student's commands (the default) */
    LAB_CLI_TEACH, /* an instructor's or a grader's: new exercises, batches, gradebooks */
    LAB_CLI_GROUP_COUNT
} lab_cli_group;

/* "for students", ...: a group's heading in --help and the man page. */
extern const char *const lab_cli_group_titles[LAB_CLI_GROUP_COUNT];

typedef struct lab_cmd {
    const char *name;
    const char *help;          /* one line */
    const lab_cli_param *args; /* positional arguments, in order; NULL: none */
    const lab_cli_param *opts; /* options; NULL: none */
    bool without_lab;          /* runs even when the lab cannot open (cli->lab NULL) */
    lab_cli_group group;       /* who it is for */
    bool machine_output;       /* writes for programs (the gradebook): its messages stay English */
    int (*run)(lab_cli *cli, const lab_cli_args *args);
    /* What `cudalab help NAME` adds after the options (grade: the verdicts); NULL: nothing. */
    void (*more_help)(FILE *fp);
} lab_cmd;

extern const lab_cmd *const lab_cmds[];
extern const size_t lab_cmd_count;

/* The names of lab_cli_type and lab_cli_occurs, as --dump-commands writes them. */
extern const char *const lab_cli_type_names[LAB_CLI_TYPE_COUNT];
extern const char *const lab_cli_occurs_names[LAB_CLI_OCCURS_COUNT];

const lab_cmd *lab_cli_find(const char *name);
/* The option of cmd named name ("seed"), or NULL. */
const lab_cli_param *lab_cli_find_opt(const lab_cmd *cmd, const char *name);
/* The declaration the i-th positional argument answers to (the last one repeats), or NULL. */
const lab_cli_param *lab_cli_arg_at(const lab_cmd *cmd, size_t i);
/* How many positionals cmd takes at most; SIZE_MAX when its last one repeats. */
size_t lab_cli_max_args(const lab_cmd *cmd);

/* --- the parser (args.c) --- */

/* Splits argv (the words after the command's name) into options, with their values
 * checked, and positionals: `--opt value`, `--opt=value`, `-x value`; `--` ends the
 * options; a word that reads as a negative number ("-3", "-0.5") is a positional.
 * --help or -h sets out->help and stops.  On failure err holds one line without the
 * command's name: "unknown option '--sed' (see: cudalab help grade)".  Release out in
 * either case. */
int lab_cli_args_parse(const lab_cmd *cmd, int argc, char *const *argv, lab_cli_args *out,
                       lab_err *err);
/* Then: the positionals against the declarations (how many, their numbers and choices)
 * and the required options. */
int lab_cli_args_check(lab_cli_args *a, lab_err *err);
void lab_cli_args_release(lab_cli_args *a);

/* Both of the above for the CLI and the shell: a usage error is printed as one line
 * ("cudalab grade: --seed needs a value (N)") and gives LAB_EXIT_ERROR; --help prints
 * the command's usage, sets out->help and gives LAB_EXIT_OK.  Release out in any case. */
int lab_cli_args_read(const lab_cmd *cmd, int argc, char *const *argv, lab_cli_args *out);

/* For completion: what the word after argv (complete words after the command's name)
 * is.  *opt_out: the option whose value it is, or NULL; then *pos_out: the index of the
 * positional it would be. */
void lab_cli_args_next(const lab_cmd *cmd, int argc, char *const *argv,
                       const lab_cli_param **opt_out, size_t *pos_out);

/* Readers of a parsed line; name is an option the command declares ("json"). */
bool lab_cli_args_has(const lab_cli_args *a, const char *name);
/* The option's last value, or NULL when it was not given. */
const char *lab_cli_args_value(const lab_cli_args *a, const char *name);
/* The number option's last value, or dflt when it was not given. */
uint64_t lab_cli_args_number(const lab_cli_args *a, const char *name, uint64_t dflt);
/* The i-th positional (from 0), or NULL; its number, or dflt when not given. */
const char *lab_cli_args_pos(const lab_cli_args *a, size_t i);
uint64_t lab_cli_args_pos_number(const lab_cli_args *a, size_t i, uint64_t dflt);

/* --- the table, as text (cmd-help.c) --- */

/* How a value of p is shown: its metavar ("N"), else its choices ("a|b"). */
void lab_cli_param_value(const lab_cli_param *p, lab_buf *out);
/* "cudalab grade EXERCISE [FILE] [--json] [--seed N]": the command and its arguments. */
void lab_cli_synopsis(const lab_cmd *cmd, lab_buf *out);
/* The usage line, the help line and every argument and option with its help
 * (`cudalab help NAME`, `cudalab NAME --help`). */
void lab_cli_print_usage(const lab_cmd *cmd, FILE *fp);
/* Every command with its arguments and every option (`cudalab --help`, `cudalab help`). */
void lab_cli_print_overview(FILE *fp);
/* Prints "cudalab CMD: msg (usage: SYNOPSIS)" to stderr; returns LAB_EXIT_ERROR. */
int lab_cli_usage_error(const lab_cmd *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The declarations as tab-separated rows for the man page and completion generators:
 *   command  NAME  SYNOPSIS  HELP  GROUP
 *   arg      CMD   NAME  TYPE  OCCURS  CHOICES  HELP
 *   option   CMD   --NAME  -X  TYPE  METAVAR  OCCURS  CHOICES  HELP
 * (GROUP as lab_cli_group_titles, TYPE and OCCURS as lab_cli_type_names and lab_cli_occurs_names;
 * CHOICES separated by ','; an empty field where there is none). */
void lab_cli_dump_commands(FILE *fp);

/* --- helpers every command shares (cmd-table.c) --- */

/* The positionals of the commands that take "EXERCISE" or "EXERCISE [FILE]" (a kernel, by
 * default the student's work file): what lab_cli_exercise_file reads. */
extern const lab_cli_param lab_cli_exercise_args[];
extern const lab_cli_param lab_cli_exercise_file_args[];

/* Looks up an exercise id; prints why it is broken, or "unknown exercise" with the nearest
 * ids, on failure. */
const lab_exercise *lab_cli_exercise(lab_cli *cli, const char *id);
/* The exercise the first positional names and, in *file_out, the kernel file the second one
 * names, by default the student's work file (built in work, which the caller releases).
 * NULL after printing "unknown exercise". */
const lab_exercise *lab_cli_exercise_file(lab_cli *cli, const lab_cli_args *args, lab_buf *work,
                                          const char **file_out);
/* Whether a command line's output is read by programs (--json, or a machine_output command):
 * its messages are then English in every language (lab_i18n_english). */
bool lab_cli_english_output(const lab_cli_args *a);
/* "cudalab " in the CLI, "" in the shell: what a command a message suggests starts with. */
const char *lab_cli_prog(const lab_cli *cli);
/* Prints "cudalab: msg" to stderr; returns LAB_EXIT_ERROR. */
int lab_cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Writes len bytes of text to f as a terminal may show them (lab/util/utf8.h: control
 * characters but newlines and tabs, and invalid UTF-8, shown instead of sent): for what came
 * from outside the lab, a student's file name or a compiler's log. */
void lab_cli_put_shown(FILE *f, const char *text, size_t len);
/* Adds "model" to o: the GPU modelled, the sizes, and per role its modelled ns, what bounds it,
 * each bound's ns, the counts at the timed size and as simulated (counts_big, counts_small)
 * (lab/grade/modelled.h). */
void lab_cli_model_json(struct cJSON *o, const lab_modelled *m);
/* Prints o as indented JSON and a newline, then frees it. */
void lab_cli_print_json(struct cJSON *o);
/* SGR colour on/off around text when cli->color. */
const char *lab_cli_sgr(const lab_cli *cli, const char *params);
const char *lab_cli_reset(const lab_cli *cli);
/* Runs cmd with argv, the words after its name, as the CLI would: parsed, then run;
 * returns its exit status. */
int lab_cli_run(lab_cli *cli, const lab_cmd *cmd, int argc, char *const *argv);
/* The same for a command line whose argv[0] names the command (the shell). */
int lab_cli_dispatch(lab_cli *cli, int argc, char *const *argv);
/* The columns of the terminal on stdout, else $COLUMNS, else 0 (unknown: a pipe). */
int lab_cli_width(void);
/* Prints Markdown (a task, a hint) laid out for the terminal's width, at most 100 columns, its
 * styles as SGR colours when cli->color (print.c); 0, LAB_ENOMEM or LAB_EPARSE. */
int lab_cli_print_markdown(const lab_cli *cli, const char *text, size_t len);
/* A lab_line_fn (arg: the lab_cli) printing a report's line on stdout, its styles as SGR colours
 * when cli->color (print.c); always 0. */
int lab_cli_print_line(void *cli, const lab_line *line);

/* --- did you mean (suggest.c) --- */

/* The i-th name of a list, NULL past its end. */
typedef const char *lab_cli_name_fn(const void *arg, size_t i);
/* Appends to out the names of the list nearest to word by edit distance (each name or its part
 * after the last '/'), quoted and separated by ", ", at most three; nothing when none is near
 * enough to be a typo of it. */
void lab_cli_suggest(const char *word, lab_cli_name_fn *name_at, const void *arg, lab_buf *out);
/* Prints "cudalab: unknown WHAT 'WORD'; did you mean 'X'? (PROG LISTING)" on one line, the
 * suggestion from the list name_at gives; returns LAB_EXIT_ERROR. */
int lab_cli_unknown(const lab_cli *cli, const char *what, const char *word,
                    lab_cli_name_fn *name_at, const void *arg, const char *listing);
/* The same for a command: "unknown command 'NAME'; ... (cudalab help lists the commands)". */
int lab_cli_unknown_command(const lab_cli *cli, const char *name);

extern const lab_cmd lab_cmd_list, lab_cmd_show, lab_cmd_start, lab_cmd_grade, lab_cmd_demo,
    lab_cmd_device, lab_cmd_doctor, lab_cmd_help, lab_cmd_inspect, lab_cmd_profile, lab_cmd_predict,
    lab_cmd_hint, lab_cmd_reset, lab_cmd_history, lab_cmd_watch, lab_cmd_menu, lab_cmd_shell,
    lab_cmd_next;
extern const lab_cmd lab_cmd_new_exercise, lab_cmd_check_exercise, lab_cmd_batch, lab_cmd_gradebook,
    lab_cmd_calibrate;

#endif
