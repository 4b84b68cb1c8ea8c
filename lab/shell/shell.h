/*
 * shell.h - `cudalab shell`: the CLI's commands at a readline prompt.
 *
 * Dispatch, help and completion come from the CLI's one command table
 * (lab/cli/cli.h): a word after a command completes as that command's
 * lab_cmd.complete says (exercise ids, file names).  The prompt shows the
 * current exercise: the last one a command named; a command whose first
 * argument is an exercise gets the current one when the line gives none.
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
