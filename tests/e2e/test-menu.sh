#!/bin/bash
# The menu (`cudalab` on a terminal) in tmux at 80x24: home -> chapter text
# and search -> exercise -> edit with $EDITOR -> grade; without a GPU a
# compile error with its line, then NO_GPU; with the recorded H100 reports
# (test-menu-grade.sh) a PASS, cancel, resize, Ctrl-C and SIGTERM; here
# the terminal restored after q.
set -u
. "$(dirname "$0")/lib.sh"
# grading here means compile-and-NO_GPU: no simulator run (test-grade-sim.sh has those)
export CUDALAB_BACKEND=cuda
. "$E2E_SRC/tests/e2e/tmux.sh"

less=reduction/neighbored-less
work=work/$less.cu
# The editor the menu runs: copies $EDIT_FROM over the file it is given.
cat >"$T/edit.sh" <<'EOS'
#!/bin/sh
if [ -e "$EDIT_LOG.crash" ]; then kill -SEGV $$; fi
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

# --- without a GPU: compile error, then NO_GPU ---------------------------------
printf '__global__ void reduceNeighboredLess(int *g_idata, int *g_odata, unsigned int n)\n{\n    int x = ;\n}\n' >"$T/broken.cu"
export EDIT_FROM=$T/broken.cu
menu_session
wait_screen "home: overall progress" "Progress: 0 of $(cudalab list --json | grep -c '"id":') exercises passed, 0/"
wait_screen "home: says there is no GPU, and that the simulator grades" "no GPU: the simulator grades; speed on modelled H100 times"
wait_screen "home: the chapters" "Warp execution  (chapter text)"
tmux_keys / "Parallel reduction  (chapter" Enter Enter
wait_screen "chapter: the text rendered from docs/" "A reduction turns many values into one"
wait_screen "chapter: a code block, indented" "    int sum = 0;"
tmux_keys / recursiveReduce Enter
wait_screen "chapter: / finds a word" "found 'recursiveReduce'"
tmux_keys q / "Neighbored pairs, less divergence" Enter Enter
wait_screen "exercise: title and id" "Neighbored pairs, less divergence  (reduction/neighbored-less)"
wait_screen "exercise: the file is not there yet" "not there yet: e creates it"
tmux_keys h
wait_screen "exercise: h reveals hint 1" "Hint 1 of 3"
tmux_keys '?'
wait_screen "?: the exercise's keys" "reset your file to the starter"
tmux_keys q
tmux_keys e
wait_screen "edit: back in the menu after the editor" "created $work: g grades it"
expect_eq "edit: the editor got the student's file" "$(cat "$work" 2>/dev/null)" "$(cat "$T/broken.cu")"
tmux_keys g
wait_screen "grade: the compile error's verdict" "COMPILE_ERROR" 60
wait_screen "grade: nvcc's message with the file and line" "work/reduction/neighbored-less.cu:3: error: expected an expression" 5
tmux_keys q
cp "$CUDALAB_DATADIR_TEST/solutions/$less.cu" "$work"
tmux_keys g
wait_screen "grade without a GPU: NO_GPU" "NO_GPU" 60
tmux_keys q
touch "$EDIT_LOG.crash"
tmux_keys e
wait_screen "an editor that crashes: the menu says so and goes on" "was killed by signal 11"
rm "$EDIT_LOG.crash"
tmux_keys r
wait_screen "reset asks first" "Put the starter back in your file? A backup is kept. (y/n)"
tmux_keys n
sleep 0.3
expect_eq "reset: n keeps the file" "$(cat "$work")" "$(cat "$CUDALAB_DATADIR_TEST/solutions/$less.cu")"
tmux_keys r y
wait_screen "reset: y puts the starter back and names the backup" \
    "reset to the starter; your version is in $work.1.bak"
expect_eq "reset: the backup holds the old file" "$(cat "$work.1.bak")" \
    "$(cat "$CUDALAB_DATADIR_TEST/solutions/$less.cu")"
tmux_keys q
wait_screen "home: the attempts show, in the words of list" "attempted, last NO_GPU"
tmux_keys q
wait_screen "q on home quits, status 0" "EXITED rc=0"
wait_screen "q: the terminal is restored" "TTY-RESTORED" 3
tmux_end

e2e_finish
