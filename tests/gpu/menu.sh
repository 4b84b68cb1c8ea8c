#!/bin/bash
# tests/gpu/menu.sh BIN LOGDIR: the menu on a real GPU, in tmux at 80x24:
# open reduction/neighbored-less, "edit" (an $EDITOR that copies the
# reference solution in), grade, and show the result screen with its table;
# then Profile (ncu's table for the kernel) and the divergence chapter's demo
# from the home screen with its three predictions answered (the report's
# table, the measured question decided by the run).  The store is the
# test's own ($XDG_DATA_HOME in a temp dir).
# Prints the screen and one "ok"/"FAIL" line per check; exit status 1 on a
# failure.  Run by tests/gpu/run.sh.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") log=$2 # the session runs in a temp dir
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
sock=cudalab-gpu-menu-$$
fail=0
command -v tmux >/dev/null || { echo "FAIL menu: tmux is not installed"; exit 1; }
# tmux's server is a daemon: killed with this script too (a timeout), or it and the lab
# inside it would live on, holding the GPU's lock for the next run
trap 'tmux -L "$sock" kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' TERM INT HUP
printf '#!/bin/sh\ncp "%s" "$1"\n' "$root/solutions/reduction/neighbored-less.cu" >"$tmp/edit.sh"
chmod +x "$tmp/edit.sh"
screen() { tmux -L "$sock" capture-pane -p -t lab 2>/dev/null; }
wait_for() { # TEXT SECONDS
    local i
    for ((i = 0; i < $2 * 10; i++)); do
        screen | grep -Fq -- "$1" && return 0
        tmux -L "$sock" has-session -t lab 2>/dev/null || { echo "-- the lab's tmux session is gone"; return 1; }
        sleep 0.1
    done
    echo "-- waited $2 s for \"$1\"; the screen:"
    screen
    return 1
}
check() { # NAME STATUS
    if [ "$2" -eq 0 ]; then echo "ok   menu: $1"; else echo "FAIL menu: $1"; fail=1; fi
}
(cd "$tmp" && XDG_DATA_HOME=$tmp/data EDITOR=$tmp/edit.sh VISUAL= tmux -L "$sock" -f /dev/null new-session -d -x 80 -y 24 \
    -s lab bash -c '"$0"; echo "EXITED rc=$?"; sleep 30' "$bin")
wait_for "Progress:" 30
screen | grep -Eq '^GPU: '
check "home names the GPU" $?
tmux -L "$sock" send-keys -t lab / "Neighbored pairs, less divergence" Enter Enter e
wait_for "created work/reduction/neighbored-less.cu" 10
check "the editor ran" $?
tmux -L "$sock" send-keys -t lab g
wait_for "over reduceNeighbored (needs" 300 # the verdict line
screen | tee "$log/menu-pass.txt"
screen | grep -Eq '^PASS  '
check "PASS on the result screen" $?
screen | grep -Eq '^  student +[0-9.]+ us '
check "the timing table's student row" $?
# Profile: ncu's counters for the kernel just graded
tmux -L "$sock" send-keys -t lab q p
wait_for "(your kernel)" 600
tmux -L "$sock" send-keys -t lab Home
sleep 0.5
screen | tee "$log/menu-profile.txt"
screen | grep -Fq "(ncu --clock-control none; ncu's times never grade)"
check "profile: ncu ran on the GPU" $?
screen | grep -Eq '^reduceNeighboredLess \(your kernel\)'
check "profile: your kernel's table" $?
screen | grep -Eq '^  branch_efficiency +[0-9.]+ %'
check "profile: branch efficiency measured by ncu" $?
# the divergence demo from home, predictions first
tmux -L "$sock" send-keys -t lab q q / "Warp divergence" Enter d
wait_for "Predict before you run: question 1 of 3" 10
check "demo: the first prediction question" $?
tmux -L "$sock" send-keys -t lab End Enter
wait_for "question 2 of 3" 5
tmux -L "$sock" send-keys -t lab Down Enter
wait_for "question 3 of 3" 5
tmux -L "$sock" send-keys -t lab Enter
sleep 0.5
tmux -L "$sock" send-keys -t lab 200 Enter
wait_for "mathKernel1-4: short branches" 600
check "demo: the report's first section" $?
screen | tee "$log/menu-demo.txt"
screen | grep -Eq '^  mathKernel1 +tid % 2 == 0 +[0-9.]+ +[0-9.]+ '
check "demo: mathKernel1's row with its times" $?
tmux -L "$sock" send-keys -t lab End
wait_for "you said:" 5
# three predictions with their explanations are taller than 24 lines: page up to the first
for _ in 1 2 3 4 5 6; do
    screen | grep -Fq "you said: about the same" && break
    tmux -L "$sock" send-keys -t lab PPage
    sleep 0.3
done
screen | tee -a "$log/menu-demo.txt"
screen | grep -Eq 'you said: about the same  -> (your prediction held|not this time)'
check "demo: the measured prediction is decided on the GPU" $?
screen | grep -Fq "measured: fastest block 512: mathKernel"
check "demo: what was measured" $?
tmux -L "$sock" send-keys -t lab q q
wait_for "EXITED rc=0" 10
check "q q quits" $?
exit $fail
