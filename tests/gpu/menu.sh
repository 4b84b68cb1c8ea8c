#!/bin/bash
# tests/gpu/menu.sh BIN LOGDIR: the menu on a real GPU, in tmux at 80x24:
# open reduction/neighbored-less, "edit" (an $EDITOR that copies the
# reference solution in), grade, and show the result screen with its table.
# Prints the screen and one "ok"/"FAIL" line per check; exit status 1 on a
# failure.  Run by tests/gpu/run.sh.
set -u
bin=$1 log=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
sock=cudalab-gpu-menu-$$
fail=0
command -v tmux >/dev/null || { echo "FAIL menu: tmux is not installed"; exit 1; }
printf '#!/bin/sh\ncp "%s" "$1"\n' "$root/solutions/reduction/neighbored-less.cu" >"$tmp/edit.sh"
chmod +x "$tmp/edit.sh"
screen() { tmux -L "$sock" capture-pane -p -t lab 2>/dev/null; }
wait_for() { # TEXT SECONDS
    local i
    for ((i = 0; i < $2 * 10; i++)); do
        screen | grep -Fq -- "$1" && return 0
        sleep 0.1
    done
    return 1
}
check() { # NAME STATUS
    if [ "$2" -eq 0 ]; then echo "ok   menu: $1"; else echo "FAIL menu: $1"; fail=1; fi
}
(cd "$tmp" && EDITOR=$tmp/edit.sh VISUAL= tmux -L "$sock" -f /dev/null new-session -d -x 80 -y 24 \
    -s lab bash -c '"$0"; echo "EXITED rc=$?"; sleep 30' "$bin")
wait_for "Progress:" 30
screen | grep -Eq '^GPU: '
check "home names the GPU" $?
tmux -L "$sock" send-keys -t lab / "Neighbored pairs, less divergence" Enter Enter e
wait_for "created work/reduction/neighbored-less.cu" 10
check "the editor ran" $?
tmux -L "$sock" send-keys -t lab g
wait_for "/10 points" 300
screen | tee "$log/menu-pass.txt"
screen | grep -Eq '^PASS  '
check "PASS on the result screen" $?
screen | grep -Eq '^  student +[0-9.]+ us '
check "the timing table's student row" $?
tmux -L "$sock" send-keys -t lab q q q
wait_for "EXITED rc=0" 10
check "q q q quits" $?
tmux -L "$sock" kill-server 2>/dev/null
rm -rf "$tmp"
exit $fail
