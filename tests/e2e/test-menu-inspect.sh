#!/bin/bash
# The exercise view's Inspect and Profile in tmux at 80x24, with the real
# nvcc and ptxas (and nvdisasm where `make cuda-tools` put it):
# - Inspect: resources, occupancy, the instruction mix (worded as `cudalab
#   inspect` prints them: one layout), the source and the SASS or PTX listing
#   with source lines; n/N move the cursor to the
#   marked instructions, Enter jumps from an instruction to its source line
#   and from a source line to its instructions; without nvdisasm it says how
#   to get SASS;
# - Profile without a GPU: the no-GPU message and the simulator's figures;
#   with a pretend GPU whose ncu hangs, c cancels it and nothing is left.
set -u
. "$(dirname "$0")/lib.sh"
. "$E2E_SRC/tests/e2e/tmux.sh"

less=reduction/neighbored-less
mkdir -p work/reduction
cp "$CUDALAB_DATADIR_TEST/solutions/$less.cu" "work/$less.cu"

menu_session() {
    tmux_start bash -c 'stty -g >"$0/tty.before"; "$1"; echo "EXITED rc=$?";
        if [ "$(stty -g)" = "$(cat "$0/tty.before")" ]; then echo TTY-RESTORED; fi; sleep 60' \
        "$T" "$CUDALAB_TEST_BIN"
}

# The line under the cursor (drawn in reverse video), rows 2..23 only.
cursor_line() {
    tmux -L "$TMUX_SOCK" capture-pane -p -e -t lab | sed -n '2,23p' |
        grep -E $'\e\\[([0-9]+;)*7(;[0-9]+)*m' | sed -E $'s/\e\\[[0-9;]*m//g' | head -1
}

# A fake ncu: records that it ran, then hangs (profile's cancel).
cat >"$T/fake-ncu" <<SH
#!/bin/sh
# $E2E_MARK
exec "$(marked_sleep)" 1000
SH
chmod +x "$T/fake-ncu"
export CUDALAB_NCU=$T/fake-ncu

# inspect_checks WITH: Inspect in a fresh menu, "sass" (nvdisasm there) or "ptx".
inspect_checks() {
    local w=$1 listing line first second src srcno
    menu_session
    wait_screen "$w: home is up" "Progress:"
    tmux_keys / "Neighbored pairs, less divergence" Enter Enter
    wait_screen "$w: the exercise view lists the new actions" "i inspect (PTX/SASS)  p profile"
    tmux_keys i
    wait_screen "$w: inspect: registers from ptxas" "  registers " 120
    wait_screen "$w: inspect: local memory, worded as the CLI" "  local memory (stack frame) "
    wait_screen "$w: inspect: occupancy at the exercise's block" \
        "  occupancy at block 512 (16 warps) on sm_"
    wait_screen "$w: inspect: the instruction mix" "Instruction mix of the kernel"
    screen | grep -Eq '^  PTX : [0-9]+ instructions,.* [1-9][0-9]* barrier'
    check "$w: inspect: the PTX mix counts the barrier" $?
    if [ "$w" = ptx ]; then
        wait_screen "ptx: inspect says SASS is not available" "SASS: not available"
        wait_screen "ptx: inspect says how to get it" "To see SASS: make cuda-tools"
        listing="PTX (nvcc -ptx -lineinfo), source lines interleaved"
    else
        listing="SASS (nvdisasm -g), source lines interleaved"
    fi
    tmux_keys / "source lines interleaved" Enter
    wait_screen "$w: inspect: the listing's heading" "$listing"
    tmux_keys n
    sleep 0.5
    line=$(cursor_line)
    grep -Eq ' <- ' <<<"$line"
    check "$w: inspect: n puts the cursor on a marked instruction ($line)" $?
    first=$line
    tmux_keys n
    sleep 0.5
    second=$(cursor_line)
    tmux_keys N
    sleep 0.5
    expect_eq "$w: inspect: N goes back to the previous marked instruction" "$(cursor_line)" "$first"
    grep -q ' <- ' <<<"$second"
    check "$w: inspect: n again: the next marked instruction ($second)" $?
    tmux_keys Enter
    sleep 0.5
    src=$(cursor_line)
    grep -Eq '^ +[0-9]+ \| ' <<<"$src"
    check "$w: inspect: Enter on an instruction goes to its source line ($src)" $?
    srcno=$(sed -E 's/^ +([0-9]+) .*/\1/' <<<"$src")
    tmux_keys Enter
    wait_screen "$w: inspect: Enter on a source line goes to its instructions" \
        "line $srcno: its instructions"
    grep -Eq '^        [0-9a-f]{4}  |^        [a-z@]' <<<"$(cursor_line)"
    check "$w: inspect: the cursor is on an instruction ($(cursor_line))" $?
    if [ "$w" = ptx ]; then
        tmux_keys v
        wait_screen "ptx: v says why there is no SASS" "no SASS here: make cuda-tools"
    else
        tmux_keys v
        wait_screen "sass: v shows the PTX" "v: show the SASS"
    fi
    tmux_keys q
    wait_screen "$w: inspect: q goes back to the exercise" "Status: "
}

# CI has no nvdisasm unless `make cuda-tools`: a tools dir without it first
CUDALAB_TOOLS_DIR=$T/no-tools inspect_checks ptx
if "$CUDALAB_TEST_BIN" inspect "$less" "work/$less.cu" --summary | grep -q '^  SASS: [0-9]'; then
    tmux_keys q q
    wait_screen "ptx: q q quits" "EXITED rc=0"
    tmux_end
    inspect_checks sass
else
    pass "sass: no nvdisasm here (make cuda-tools installs it): the SASS view is not shown"
fi

# --- Profile without a GPU ---------------------------------------------------------
tmux_keys p
wait_screen "profile: no GPU says so" "no ncu table: profiling needs a GPU" 120
screen | grep -Eq '^reduceNeighboredLess \(your kernel\)'
check "profile: your kernel's table" $?
screen | grep -Eq '^  branch_efficiency +[0-9.]+ %  '
check "profile: branch efficiency: the simulator's, as the CLI shows it" $?
wait_screen "profile: the simulator's figures" "(your kernel): the simulator's PTX-level figures at n = "
tmux_keys q q q
wait_screen "q q q quits" "EXITED rc=0"
wait_screen "the terminal is restored" "TTY-RESTORED" 3
expect_no_process "nothing left running" "$E2E_MARK"
tmux_end

# --- Inspect with an nvcc that hangs (a changed file: no cached build): c cancels ------
cat >"$T/hanging-nvcc" <<SH
#!/bin/sh
# $E2E_MARK
[ "\$1" = --version ] && exec "$(command -v nvcc)" "\$@"
exec "$(marked_sleep)" 1000
SH
chmod +x "$T/hanging-nvcc"
echo "// changed: $E2E_MARK" >>"work/$less.cu"
CUDALAB_NVCC=$T/hanging-nvcc menu_session
wait_screen "hanging nvcc: home" "Progress:"
tmux_keys / "Neighbored pairs, less divergence" Enter Enter i
wait_screen "hanging nvcc: inspecting runs" "inspecting reduction/neighbored-less:" 60
expect_process "hanging nvcc: nvcc is running before the key" "$E2E_MARK-sleep"
tmux_keys c
wait_screen "hanging nvcc: c cancels" "inspecting cancelled after" 10
expect_no_process "hanging nvcc: no child process is left" "$E2E_MARK-sleep"
tmux_keys C-c
wait_screen "hanging nvcc: Ctrl-C quits" "EXITED rc=0"
tmux_end

# --- Profile on a pretend GPU whose ncu hangs: c cancels ------------------------------
. "$E2E_SRC/tests/e2e/fake-gpu.sh"
menu_session
wait_screen "pretend GPU: home" "GPU: NVIDIA H100 80GB HBM3 (sm_90)"
tmux_keys / "Neighbored pairs, less divergence" Enter Enter p
wait_screen "pretend GPU: profiling runs" "profiling reduction/neighbored-less:" 60
expect_process "pretend GPU: ncu is running before the key" "$E2E_MARK-sleep"
tmux_keys c
wait_screen "pretend GPU: c cancels" "profiling cancelled after" 10
wait_screen "pretend GPU: the view says so" "profile: cancelled"
expect_no_process "pretend GPU: no child process is left" "$E2E_MARK"
tmux_keys C-c
wait_screen "pretend GPU: Ctrl-C quits" "EXITED rc=0"
tmux_end

e2e_finish
