#!/bin/bash
# `cudalab shell`: commands piped on stdin (scriptable), the current
# exercise filled in, errors; in tmux: Tab completion of commands, exercise
# ids, files, options, chapters and choices, and the history file under
# XDG_DATA_HOME.
set -u
. "$(dirname "$0")/lib.sh"
# grading here means compile-and-NO_GPU: no simulator run (test-grade-sim.sh has those)
export CUDALAB_BACKEND=cuda

less=reduction/neighbored-less

run cudalab shell <<<"help
list
show $less
hint
hint 2
start
bogus
exit
list"
expect_out "piped: help comes from the command table" "shell     "
expect_out "piped: list" "reduction/neighbored-less"
expect_out "piped: show names the exercise" "$less: Neighbored pairs, less divergence"
expect_out "piped: hint uses the current exercise" "Hint 1 of 3 for $less"
expect_out "piped: hint 2 too" "Hint 2 of 3 for $less"
expect_out "piped: start uses the current exercise" "Created work/$less.cu from the starter."
expect_err "piped: an unknown command is an error" "cudalab: unknown command 'bogus'"
expect_eq "piped: exit stops reading (list after it not run)" "$(grep -c 'Parallel reduction' <<<"$OUT")" 1
expect_out_lacks "piped: no prompt when stdin is not a terminal" "cudalab>"

# hint without N: the next one each time; the shell's own forms, not the CLI's (a store of its
# own: the count of hints seen is the store's, and the run above saw two)
XDG_DATA_HOME=$T/fresh run cudalab shell <<<"show $less
hint
hint
hint
hint
hint 1"
expect_eq "piped: hint, hint, hint: hints 1, 2 and 3, then hint 1 again when asked" \
    "$(grep -o '^Hint [0-9] of 3' <<<"$OUT" | paste -sd,)" "Hint 1 of 3,Hint 2 of 3,Hint 3 of 3,Hint 1 of 3"
expect_out "piped: past the last hint, says so" "No more hints: you have seen all 3"
expect_out "piped: the next hint in the shell's form" "(next: hint)"
expect_out_lacks "piped: no CLI form in the shell" "(next: cudalab hint"
expect_out "piped: show names hint, not the hints file" "Hints: 3, one at a time: hint"
run cudalab shell <<<"show reduction/neighbored
grade"
expect_err "piped: grading a file not made yet: start, in the shell's form" \
    "(run 'start reduction/neighbored' to create it)"

# a mistyped exercise is an exercise, not a file to grade against the current one
run cudalab shell <<<"show $less
grade reduction/neighbored-les
hint nosuch/ex
grade nosuch/ex
gradee"
expect_err "piped: grade nosuch: did you mean, not a file" \
    "unknown exercise 'reduction/neighbored-les'; did you mean 'reduction/neighbored-less'? (list shows them all)"
expect_err "piped: grade nosuch/ex: an unknown exercise" "cudalab: unknown exercise 'nosuch/ex'"
expect_out_lacks "piped: nosuch/ex was not graded as a file" "nosuch/ex  "
[ "$(grep -c "cannot read 'nosuch/ex'" <<<"$ERR")" -eq 0 ]
check "piped: nosuch/ex is not read as a file" $?
expect_err "piped: a mistyped command: did you mean, in the shell's form" \
    "cudalab: unknown command 'gradee'; did you mean 'grade'? (help lists the commands)"

run cudalab shell <<<"grade $less --no-record"
expect_status "piped: the exit status is the last command's (NO_GPU: 1)" 1
expect_out_re "piped: grade prints the verdict" '^NO_GPU  '

run cudalab shell <<<'show "reduction/neighbored'
expect_err "piped: an open quote is an error" "unclosed quote"

. "$E2E_SRC/tests/e2e/tmux.sh"
touch "$T/mykernel-file.cu"
tmux_start bash -c 'cd "$0" && "$1" shell; echo SHELL-EXITED; sleep 60' "$T" "$CUDALAB_TEST_BIN"
wait_screen "tty: the prompt" "cudalab>"
tmux_keys 'sho' Tab
wait_screen "tty: Tab completes a command" "cudalab> show"
tmux_keys 'reduction/neighbored-l' Tab
wait_screen "tty: Tab completes an exercise id" "cudalab> show reduction/neighbored-less"
tmux_keys Enter
wait_screen "tty: the prompt shows the current exercise" "cudalab $less>"
tmux_keys C-l "grade mykern" Tab
wait_screen "tty: Tab completes a file (after the implied exercise)" "$less> grade mykernel-file.cu"
tmux_keys C-u "grade --no-r" Tab
wait_screen "tty: Tab completes a command's option" "$less> grade --no-record"
tmux_keys C-u "demo occ" Tab
wait_screen "tty: Tab completes a chapter" "$less> demo occupancy"
tmux_keys C-u "new-exercise x/y --family reduce-fl" Tab
wait_screen "tty: Tab completes an option's choice" "$less> new-exercise x/y --family reduce-float"
# the verdict at the terminal's width: wrapped under its cause, the points whole on its last line
tmux_keys C-u "grade --no-record" Enter
wait_screen "tty: the verdict" "NO_GPU  compiled for" 60
screen | grep -Eq '^ {8}.* 0/10 points$'
check "tty: the verdict wraps under its cause and ends with the points, whole" $?
expect_eq "tty: no line is cut in the middle of the points" "$(screen | grep -cE '^ *points')" 0
tmux_keys C-l C-u 'exit' Enter
wait_screen "tty: exit leaves" "SHELL-EXITED"
tmux_end
# Ctrl-C on a terminal: cancels a grading (no child left), clears a line, keeps the shell
fx=$T/libexec-$E2E_MARK
fake_programs "$fx"
printf '#!/bin/sh\ncat "%s" >&3\n' "$FIXTURES/reports/probe.json" >"$fx/device-probe"
printf '#!/bin/sh\n# %s\n"%s" 1000\n' "$E2E_MARK" "$(marked_sleep)" >"$fx/reduce-int"
chmod +x "$fx/device-probe" "$fx/reduce-int"
CUDALAB_LIBEXECDIR=$fx CUDALAB_ARCH=sm_90 tmux_start bash -c \
    'cd "$0" && "$1" shell; echo "SHELL-EXITED rc=$?"; sleep 60' "$T" "$CUDALAB_TEST_BIN"
wait_screen "Ctrl-C: the prompt" "cudalab>"
tmux_keys "grade $less" Enter
wait_screen "Ctrl-C: the grading runs" "running on" 60
for _ in $(seq 50); do
    pgrep -f -- "$E2E_MARK" >/dev/null && break
    sleep 0.1
done
tmux_keys C-c
wait_screen "Ctrl-C: cancels the grading" "cudalab: cancelled"
expect_no_process "Ctrl-C: no child process is left" "$E2E_MARK"
tmux_keys "some half-typed line" C-c
sleep 0.5
tmux_keys 'exit' Enter
wait_screen "Ctrl-C: clears the line; the shell goes on until exit" "SHELL-EXITED rc=2"
tmux_end

hist=$XDG_DATA_HOME/cudalab/history
expect_eq "history: kept in XDG_DATA_HOME/cudalab/history" "$(cat "$hist" 2>/dev/null)" "show $less
grade --no-record
exit
grade $less
exit"

e2e_finish
