/*
 * shell.h - `cudalab shell`: the CLI's commands at a readline prompt.
 *
 * Dispatch, help and completion come from the CLI's one command table
 * (lab/cli/cli.h): a line is parsed by the CLI's parser, and a word completes
 * as its command declares it: the command's options, an option's value or a
 * positional argument by its type (exercise and chapter ids, command names,
 * choices, file names).  The prompt shows the current exercise: the last one a
 * command named; a command whose first argument is an exercise gets the
 * current one when the line names none and has room for it.
 * History persists in $XDG_DATA_HOME/cudalab/history (default
 * ~/.local/share/cudalab/history).  When stdin is not a terminal the shell
 * reads commands line by line with no prompt, so it can be scripted; its exit
 * status is then the last command's.  On a terminal Ctrl-C clears the line, or
 * cancels a grading or a watch (no child is left) and gives the prompt back;
 * from a pipe it ends the shell and its children, as in the CLI.
 */
#ifndef LAB_SHELL_SHELL_H
#define LAB_SHELL_SHELL_H

#include "lab/cli/cli.h"

int lab_shell_run(lab_cli *cli);

#endif
