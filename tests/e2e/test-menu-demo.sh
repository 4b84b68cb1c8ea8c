#!/bin/bash
# The menu's demo view in tmux at 80x24, with "predict before you run":
# - a recorded H100 demo report (tests/fixtures/demo/blockshape.json, replayed
#   by a fake demo driver; the chapter's solution really compiled): the
#   questions asked first (a choice from a list), the answers in the store,
#   the report's table, heat map and bar chart on screen, each prediction
#   judged by the measurement, and the score on the home screen;
# - the real demo driver without a GPU: questions of every kind (a number typed), the demo on
#   the simulator with its modelled label, a measured question decided on modelled times;
# - a hanging demo driver cancelled with c: no process left;
# - quitting leaves nothing running and the terminal restored.
set -u
. "$(dirname "$0")/lib.sh"
. "$E2E_SRC/tests/e2e/tmux.sh"

menu_session() {
    tmux_start bash -c 'stty -g >"$0/tty.before"; "$1"; echo "EXITED rc=$?";
        if [ "$(stty -g)" = "$(cat "$0/tty.before")" ]; then echo TTY-RESTORED; fi; sleep 60' \
        "$T" "$CUDALAB_TEST_BIN"
}

# --- the real demo driver, no GPU: every kind of question -----------------------------
menu_session
wait_screen "home is up" "Progress:"
tmux_keys / "Warp divergence" Enter
wait_screen "home: the chapter says d runs its demo" "Warp divergence  (chapter text)  d: demo"
tmux_keys d
wait_screen "d asks the first unanswered question" "Predict before you run: question 1 of 3"
wait_screen "the question's prompt" "which of mathKernel1 to mathKernel4 is"
wait_screen "its choices as a list" "about the same"
wait_screen "no GPU: says the demo models this one, and when a model decides it" \
    "No GPU here: the demo runs on the simulator and models the times"
tmux_keys Down Down Down Enter
wait_screen "an answer leads to the next question" "question 2 of 3"
expect_eq "no GPU: a question with a fixed answer has no such line" \
    "$(screen | grep -c 'No GPU here')" 0
wait_screen "the status line repeats the answer" "your prediction: mathKernel4"
tmux_keys Down Enter
wait_screen "question 3 asks for a number" "Enter: type a number"
tmux_keys Enter
tmux_keys "two hundred" Enter
wait_screen "a number question refuses words" "'two hundred' is not a number"
tmux_keys Enter
tmux_keys 200 Enter
wait_screen "the demo runs after the last answer" "demo divergence" 60
wait_screen "the real driver runs on the simulator, its times modelled" "modelled for an H100" 120
tmux_keys End
wait_screen "the predictions come after the report" "you said: 200" 5
screen >"$T/divergence.screen"
tmux_keys PPage
sleep 0.5
screen >>"$T/divergence.screen"
grep -Fq "you said: mathKernel4  -> not this time" "$T/divergence.screen"
check "a measured question is judged on modelled times without a GPU" $?
grep -Fq "modelled for an H100, not measured: fastest" "$T/divergence.screen" &&
    ! grep -Fq "measured: modelled" "$T/divergence.screen"
check "and says it was modelled, not measured" $?
grep -Fq "you said: 200  -> your prediction held" "$T/divergence.screen"
check "the number question is judged: held" $?
grep -Eq "^ +the answer is [0-9]" "$T/divergence.screen" && ! grep -Fq "measured: the answer is" "$T/divergence.screen"
check "a question with an answer of its own says it, not that it was measured" $?
expect_eq "the store keeps the three answers, judged where it could" \
    "$(db_rows "select question, answer, coalesce(held, 'null') from predictions order by id")" \
    "fastest-mathkernel|mathKernel4|0
branch-in-sass|no|1
mathkernel4-values|200|1"
tmux_keys q
wait_screen "home: the chapter's score" "predictions right: 2 of 3"
tmux_keys d
wait_screen "answered questions are not asked again: the demo runs at once" "demo divergence" 30
wait_screen "and ends" "modelled for an H100" 120
tmux_keys q q
wait_screen "q on home quits" "EXITED rc=0"
wait_screen "the terminal is restored" "TTY-RESTORED" 3
tmux_end

# --- a recorded H100 demo report ------------------------------------------------------
. "$E2E_SRC/tests/e2e/fake-gpu.sh"
printf '#!/bin/sh\n# %s\ncat "%s" >&3\n' "$E2E_MARK" "$FIXTURES/demo/blockshape.json" \
    >"$fx/demo-blockshape"
chmod +x "$fx/demo-blockshape"
menu_session
wait_screen "H100: home names the GPU" "GPU: NVIDIA H100 80GB HBM3 (sm_90)"
tmux_keys / "Block shapes" Enter d
wait_screen "H100: the first question" "Which block shape wins the sumMatrixOnGPU2D sweep"
tmux_keys Down Down Down Down Enter
wait_screen "H100: the second question" "What does a launch with a 256 x 8 block give"
tmux_keys Down Down Enter
wait_screen "H100: the report's section" "sumMatrixOnGPU2D, 16384 x 16384 floats" 60
screen | grep -Eq '^  block\.x +block\.y +grid +time \(us\)'
check "H100: the table's header with units" $?
screen | grep -Eq '^ +128 +2 +128x8192 +1175 +2741 '
check "H100: the (128,2) row" $?
screen | grep -Fq "M2070 notes"
expect_eq "H100: the wide table is cut at 80 columns" $? 1
tmux_keys Right Right
wait_screen "H100: Right scrolls the wide table" "M2070 notes (ms)"
tmux_keys Left Left
wait_screen "H100: Left scrolls back" "block.x  block.y"
tmux_keys / "time by block.y" Enter
wait_screen "H100: the heat map" "time by block.y (rows) and block.x (columns)"
screen | grep -Eq '^ +16 +32 +64 +128 +256$'
check "H100: heat map columns: the block.x values, sorted" $?
screen | grep -Eq "^ +2 +[ .:=+*#%@-]+1285 +[ .:=+*#%@-]+1175 +[ .:=+*#%@-]+1218$"
check "H100: heat map row block.y = 2, shaded" $?
tmux_keys / "Achieved occupancy" Enter
wait_screen "H100: the bar chart's section" "Achieved occupancy (Nsight Compute)"
screen | grep -Eq '^  \(128,2\) \|#{40} 76\.6 %$'
check "H100: the bar chart: the largest value is 40 wide" $?
tmux_keys End
wait_screen "H100: the predictions at the end" "Your predictions"
wait_screen "H100: the measured question held" "you said: (128,2)  -> your prediction held"
wait_screen "H100: what was measured" "measured: fastest time: (128,2) at 1175 us, spread 17 %"
wait_screen "H100: the fixed question held" "you said: invalid argument (error 1)  -> your"
wait_screen "H100: the explanation" "CUDA 13 reports cudaErrorInvalidValue"
expect_eq "H100: the store: both held" \
    "$(db_rows "select question, answer, held from predictions where chapter = 'blockshape' order by id")" \
    "best-shape|(128,2)|1
block-256x8|invalid argument (error 1)|1"
tmux_keys q
wait_screen "H100: home: the chapter's score" "predictions right: 2 of 2"

# cancel: a demo driver that hangs
sleeper=$(marked_sleep)
printf '#!/bin/sh\n# %s\n"%s" 1000\n' "$E2E_MARK" "$sleeper" >"$fx/demo-blockshape"
tmux_keys d
wait_screen "cancel: the progress line" "demo blockshape: compiling the solutions" 30
expect_process "cancel: the driver is running before the key" "$sleeper"
tmux_keys c
wait_screen "cancel: c cancels" "demo cancelled after" 10
wait_screen "cancel: the view says so" "demo blockshape: cancelled"
expect_no_process "cancel: no child process is left" "$E2E_MARK"

# quitting during a demo cancels it
tmux_keys d
wait_screen "quit: the demo runs again" "demo blockshape: compiling the solutions" 30
expect_process "quit: the driver is running" "$sleeper"
tmux_keys C-c
wait_screen "quit: Ctrl-C quits during the demo" "EXITED rc=0" 10
wait_screen "quit: the terminal is restored" "TTY-RESTORED" 3
expect_no_process "quit: nothing left running" "$E2E_MARK"
tmux_end

e2e_finish
