/*
 * cli.h - the command table of the cudalab CLI.
 *
 * One lab_cmd per file (cmd-*.c), collected in lab_cmds[] (cmd-table.c);
 * dispatch, `cudalab help` and completion walk that one list.  A command's
 * run() gets the arguments after its name and returns the process exit
 * status: 0 pass / success, 1 any other verdict, 2 usage or lab error.
 */
#ifndef LAB_CLI_CLI_H
#define LAB_CLI_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "lab/grade/grade.h"
#include "lab/grade/work.h"
#include "lab/report/lines.h"

#define LAB_EXIT_OK 0
#define LAB_EXIT_VERDICT 1
#define LAB_EXIT_ERROR 2

typedef enum lab_complete {
    LAB_COMPLETE_NONE,
    LAB_COMPLETE_EXERCISE,
    LAB_COMPLETE_FILE,
} lab_complete;

typedef struct lab_cli {
    lab *lab;               /* NULL only for a without_lab command when lab_open failed */
    const char *open_error; /* why lab_open failed, then */
    bool json;              /* --json: machine-readable output */
    bool color;             /* stdout is a terminal and NO_COLOR is unset or empty */
    bool tty_err;
    /* The shell's Ctrl-C: when it becomes nonzero, grade and watch stop (no child is left);
     * NULL in the CLI, where Ctrl-C ends the program and its children. */
    const volatile sig_atomic_t *cancel;
} lab_cli;

typedef struct lab_cmd {
    const char *name;
    const char *args; /* "EXERCISE [FILE] [--json]" */
    const char *help; /* one line */
    lab_complete complete[2];
    bool without_lab; /* runs even when the lab cannot open (cli->lab NULL) */
    int (*run)(lab_cli *cli, int argc, char **argv);
} lab_cmd;

extern const lab_cmd *const lab_cmds[];
extern const size_t lab_cmd_count;

const lab_cmd *lab_cli_find(const char *name);
/* Looks up an exercise id; prints "unknown exercise" with the known ids on failure. */
const lab_exercise *lab_cli_exercise(lab_cli *cli, const char *id);
/* Prints "cudalab: msg" to stderr; returns LAB_EXIT_ERROR. */
int lab_cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* SGR colour on/off around text when cli->color. */
const char *lab_cli_sgr(const lab_cli *cli, const char *params);
const char *lab_cli_reset(const lab_cli *cli);
/* Runs one command line (argv[0] the command) as the CLI would; returns its exit status. */
int lab_cli_dispatch(lab_cli *cli, int argc, char **argv);
/* A lab_line_fn (arg: the lab_cli) printing a report's line on stdout, its styles as SGR colours
 * when cli->color (print.c); always 0. */
int lab_cli_print_line(void *cli, const lab_line *line);
/* o printed as JSON on stdout (--json), then deleted. */
struct cJSON;
void lab_cli_print_json(struct cJSON *o);

extern const lab_cmd lab_cmd_list, lab_cmd_show, lab_cmd_start, lab_cmd_grade, lab_cmd_demo,
    lab_cmd_device, lab_cmd_doctor, lab_cmd_help, lab_cmd_inspect, lab_cmd_profile, lab_cmd_predict,
    lab_cmd_hint, lab_cmd_reset, lab_cmd_history, lab_cmd_watch, lab_cmd_menu, lab_cmd_shell;
extern const lab_cmd lab_cmd_new_exercise, lab_cmd_check_exercise, lab_cmd_batch, lab_cmd_gradebook,
    lab_cmd_calibrate;

/* "usage: cudalab NAME ARGS" and the help line (`cudalab help NAME`, `cudalab NAME --help`). */
void lab_cli_print_usage(const lab_cmd *cmd, FILE *fp);

/* The table as tab-separated lines (name, args, help, completion of the first two
 * arguments: none|exercise|file), for the man page and completion generators. */
void lab_cli_dump_commands(FILE *fp);

#endif
