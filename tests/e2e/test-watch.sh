#!/bin/bash
# cudalab watch on a terminal (tmux, 80x24), with the recorded H100 reports of neighbored-less:
# each grading clears the screen (the newest verdict alone), a PASS moves on to the next
# exercise (its file made from the starter, and that copy not graded as a save), and a save of
# another exercise's file grades that exercise.
set -u
. "$(dirname "$0")/lib.sh"
. "$E2E_SRC/tests/e2e/tmux.sh"

less=reduction/neighbored-less
fx=$T/libexec-$E2E_MARK
fake_programs "$fx"
printf '#!/bin/sh\ncat "%s" >&3\n' "$FIXTURES/reports/probe.json" >"$fx/device-probe"
chmod +x "$fx/device-probe"
report() { # the report the fake reduce driver gives from now on
    printf '#!/bin/sh\n# %s\ncat "%s" >&3\n' "$E2E_MARK" "$FIXTURES/reports/$1.json" >"$fx/reduce-int.new"
    chmod +x "$fx/reduce-int.new"
    mv "$fx/reduce-int.new" "$fx/reduce-int"
}
report less-starter
# the recorded GPU reports only: no simulator run beside them
export CUDALAB_LIBEXECDIR=$fx CUDALAB_ARCH=sm_90 CUDALAB_SIM_CHECKS=0

run cudalab start reduction/neighbored
run cudalab start $less
tmux_start bash -c '"$0" watch "$1"; echo EXITED; sleep 60' "$CUDALAB_TEST_BIN" $less
wait_screen "watch: grades at once (SLOW)" "SLOW  1.00x" 60
wait_screen "watch: names the file it follows" "watching work/$less.cu" 5

# a save of the solution: PASS, the SLOW verdict gone, on to the next exercise
report less-ref
cp "$CUDALAB_DATADIR_TEST/solutions/$less.cu" "work/$less.cu.new"
mv "work/$less.cu.new" "work/$less.cu" # as editors save
wait_screen "watch: the save is graded (PASS)" "PASS  1.82x" 60
wait_screen "watch: after a PASS, on to the next exercise" "Next: reduction/interleaved" 5
expect_eq "watch: the screen was cleared (no SLOW verdict left)" \
    "$(screen | grep -c 'SLOW  1.00x')" 0
[ -e work/reduction/interleaved.cu ]
check "watch: the next exercise's file was made from the starter" $?
wait_screen "watch: now follows the next one" "watching work/reduction/interleaved.cu" 5
sleep 3 # its own copy of the starter is not a save: the PASS stays on the screen
expect_eq "watch: making the next file did not grade it" "$(screen | grep -c 'PASS  1.82x')" 1
screen >"$T/screen-pass.txt"

# a save of another exercise's file grades that exercise
report less-starter
printf '\n' >>work/reduction/neighbored.cu
wait_screen "watch: another exercise's save is graded" "reduction/neighbored  work/reduction/neighbored.cu" 60
wait_screen "watch: and followed from then on" "watching work/reduction/neighbored.cu" 30
expect_eq "watch: one grading on the screen" "$(screen | grep -c '^watching ')" 1
tmux_end
expect_no_process "watch: no child process left" "$E2E_MARK"
e2e_finish
