#!/bin/bash
# The menu in tmux at 80x24 with the recorded H100 reports (fake drivers, as
# test-grade-recorded.sh; the student's file is really compiled): a PASS with
# its table (the verdict coloured by its style), hints, the solution and the
# history chart; a cancelled grading
# leaves no process; resize; the terminal restored after Ctrl-C and SIGTERM.
set -u
. "$(dirname "$0")/lib.sh"
. "$E2E_SRC/tests/e2e/tmux.sh"

less=reduction/neighbored-less
work=work/$less.cu
# The editor the menu runs: copies $EDIT_FROM over the file it is given.
cat >"$T/edit.sh" <<'EOS'
#!/bin/sh
cp "$EDIT_FROM" "$1"
echo edited >>"$EDIT_LOG"
EOS
chmod +x "$T/edit.sh"
export EDITOR=$T/edit.sh EDIT_LOG=$T/edit.log VISUAL=

# The menu wrapped so that its exit and the terminal after it show on screen.
menu_session() {
    tmux_start bash -c 'stty -g >"$0/tty.before"; "$1"; echo "EXITED rc=$?";
        if [ "$(stty -g)" = "$(cat "$0/tty.before")" ]; then echo TTY-RESTORED; fi; sleep 60' \
        "$T" "$CUDALAB_TEST_BIN"
}

cp "$CUDALAB_DATADIR_TEST/solutions/$less.cu" "$T/ref.cu"
export EDIT_FROM=$T/ref.cu

# --- with the recorded H100 reports --------------------------------------------
fx=$T/libexec-$E2E_MARK
fake_programs "$fx"
printf '#!/bin/sh\ncat "%s" >&3\n' "$FIXTURES/reports/probe.json" >"$fx/device-probe"
printf '#!/bin/sh\n# %s\ncat "%s" >&3\n' "$E2E_MARK" "$FIXTURES/reports/less-ref.json" >"$fx/reduce-int"
chmod +x "$fx/device-probe" "$fx/reduce-int"
export CUDALAB_LIBEXECDIR=$fx CUDALAB_ARCH=sm_90
menu_session
wait_screen "H100: home names the GPU" "GPU: NVIDIA H100 80GB HBM3 (sm_90)"
tmux_keys / "Neighbored pairs, less divergence" Enter Enter
tmux_keys e
wait_screen "H100: edited" "created $work: g grades it"
tmux_keys g
wait_screen "H100: PASS" "PASS  1.82x over reduceNeighbored" 60
wait_screen "H100: the timing table" "reference" 2
screen | grep -Eq '^  student +[0-9.]+ us .* 1\.82x$'
check "H100: the student's row of the table" $?
# the verdict's style comes from the laid-out report (lab/report/grading.h), not from searching
# the text: PASS alone is green, the message after it is not
verdict=$(tmux -L "$TMUX_SOCK" capture-pane -p -e -t lab | grep -F "over reduceNeighbored" |
    grep -vF "PASS:" | head -1)
grep -Eq $'\e\\[([0-9;]*;)?32m(\e\\[[0-9;]*m)*PASS\e\\[' <<<"$verdict"
rc=$?
check "H100: PASS is coloured green by its style, the message is not ($(cat -v <<<"$verdict"))" $rc
tmux_keys q
wait_screen "H100: the exercise shows passed" "Status: passed, best 1.82x (100% of reference)"
tmux_keys End
wait_screen "H100: all hints after a pass" "Hint 3 of 3"
tmux_keys q
wait_screen "H100: home shows the pass, speedup and fraction" "PASS 1.82x 100%"
tmux_keys Enter
tmux_keys s
wait_screen "H100: the reference solution after a pass" "Reference solution of $less"
tmux_keys q t
wait_screen "H100: history chart" "Attempts at $less"
screen | grep -Eq '^ +1  PASS +[0-9.]+ us  #+$'
check "H100: history: a bar for the pass" $?
tmux_keys q

# watch: saving the file grades it (the starter's recorded report: SLOW)
tmux_keys w
wait_screen "watch: w turns it on" "watch on: every save of neighbored-less.cu, or of another"
printf '#!/bin/sh\n# %s\ncat "%s" >&3\n' "$E2E_MARK" "$FIXTURES/reports/less-starter.json" \
    >"$fx/reduce-int"
cp "$CUDALAB_DATADIR_TEST/exercises/$less/starter.cu" "$work.new"
mv "$work.new" "$work"
wait_screen "watch: the save is graded, SLOW in the exercise view" "SLOW  1.00x over" 60
wait_screen "watch: with what to try next" "next: correct; now make it faster" 2
# a save of another exercise's file: watch follows it, that exercise's view comes up
mkdir -p work/reduction
cp "$CUDALAB_DATADIR_TEST/exercises/reduction/interleaved/starter.cu" work/reduction/interleaved.cu
wait_screen "watch: another exercise's save brings its view" " cudalab  reduction/interleaved" 30
wait_screen "watch: and follows it" "watching interleaved.cu" 30
cp "$CUDALAB_DATADIR_TEST/exercises/$less/starter.cu" "$work.new"
mv "$work.new" "$work"
wait_screen "watch: back to the first one on its save" " cudalab  $less" 30
wait_screen "watch: graded again" "SLOW  1.00x over" 60
tmux_keys w
wait_screen "watch: w again turns it off" "watch off"

# cancel: a driver that hangs
sleeper=$(marked_sleep)
printf '#!/bin/sh\n# %s\n"%s" 1000\n' "$E2E_MARK" "$sleeper" >"$fx/reduce-int"
tmux_keys g
wait_screen "cancel: the progress line" "running on" 60
for _ in $(seq 50); do
    pgrep -f -- "$E2E_MARK" >/dev/null && break
    sleep 0.1
done
pgrep -f -- "$E2E_MARK" >/dev/null
check "cancel: the driver is running before the key" $?
tmux_keys c
wait_screen "cancel: c cancels" "grading cancelled after" 10
expect_no_process "cancel: no child process is left" "$E2E_MARK"

# resize (a key first clears the status line)
tmux_keys Home
tmux -L "$TMUX_SOCK" resize-window -t lab -x 100 -y 30
sleep 0.5
expect_eq "resize: the menu redraws at 100x30 (status line on row 30)" \
    "$(screen | sed -n 30p | grep -c 'q back')" 1
tmux -L "$TMUX_SOCK" resize-window -t lab -x 80 -y 24
sleep 0.5
expect_eq "resize: and back at 80x24" "$(screen | sed -n 24p | grep -c 'q back')" 1

tmux_keys C-c
wait_screen "Ctrl-C quits" "EXITED rc=0"
wait_screen "Ctrl-C: the terminal is restored" "TTY-RESTORED" 3
tmux_end

# SIGTERM while a grading runs: children killed, terminal restored
menu_session
wait_screen "SIGTERM: menu up" "Progress:"
tmux_keys / "Neighbored pairs, less divergence" Enter Enter g
wait_screen "SIGTERM: grading runs" "running on" 60
pkill -TERM -f -- "^$CUDALAB_TEST_BIN\$"
wait_screen "SIGTERM: the lab ends by the signal" "EXITED rc=143"
wait_screen "SIGTERM: the terminal is restored" "TTY-RESTORED" 3
expect_no_process "SIGTERM: no child process is left" "$E2E_MARK"
tmux_end

e2e_finish
