#!/bin/bash
# The menu's layout at 100x30, 80x24 and 120x40 with the recorded H100 reports (fake
# drivers, as test-menu-grade.sh): the verdict paragraph wraps and keeps its points; lines
# cut at the screen's edge are marked and the status line says Right scrolls; the
# exercise view's key line names v; the result view's keys: g grades again in place, c
# cancels, and after a PASS Enter opens the next exercise.
set -u
. "$(dirname "$0")/lib.sh"
. "$E2E_SRC/tests/e2e/tmux.sh"

less=reduction/neighbored-less
work=work/$less.cu
mkdir -p "${work%/*}"
cp "$CUDALAB_DATADIR_TEST/solutions/$less.cu" "$work"
fx=$T/libexec-$E2E_MARK
fake_programs "$fx"
printf '#!/bin/sh\ncat "%s" >&3\n' "$FIXTURES/reports/probe.json" >"$fx/device-probe"
chmod +x "$fx/device-probe"
export CUDALAB_LIBEXECDIR=$fx CUDALAB_ARCH=sm_90

# report REPORT: the exercise's driver answers with the recorded report
report() {
    printf '#!/bin/sh\n# %s\ncat "%s" >&3\n' "$E2E_MARK" "$FIXTURES/reports/$1" >"$fx/reduce-int"
    chmod +x "$fx/reduce-int"
}

# menu_at COLS ROWS: the menu in a terminal of that size, on the exercise's view
menu_at() {
    TMUX_COLS=$1 TMUX_ROWS=$2 tmux_start bash -c '"$0"; echo EXITED; sleep 60' "$CUDALAB_TEST_BIN"
    wait_screen "$1x$2: the menu" "Progress:"
    tmux_keys / "Neighbored pairs, less divergence" Enter Enter
    wait_screen "$1x$2: the exercise" "Neighbored pairs, less divergence  ($less)"
}

# --- 100x30: a WRONG whose cause is longer than the screen ------------------------
report wrong.json
menu_at 100 30
wait_screen "100x30: the exercise's key line names v" "v last result"
tmux_keys g
wait_screen "100x30: WRONG" "WRONG  wrong at n = 1000: block 0 (elements 0..511)" 60
wait_screen "100x30: the cause wraps, its end shown" "(and at other sizes)" 2
wait_screen "100x30: the points shown, whole" "0/10 points" 2
expect_eq "100x30: no line runs past the edge (no > mark)" "$(screen | grep -c '>$')" 0
# a resize lays the verdict out again for the new width
tmux -L "$TMUX_SOCK" resize-window -t lab -x 80 -y 24
sleep 0.5
expect_eq "resized to 80x24: the verdict wraps again, no line cut at the edge" \
    "$(screen | grep -cE '^(WRONG|      ).*>$')" 0
wait_screen "resized to 80x24: the points still whole" "0/10 points" 2
tmux_keys Enter
wait_screen "100x30: a result that is no PASS: Enter says the next comes after a PASS" \
    "Enter opens the next exercise after a PASS"
tmux_end

# --- 80x24: the timing table is wider than the screen ------------------------------
report less-ref.json
menu_at 80 24
tmux_keys g
wait_screen "80x24: PASS" "PASS  1.82x over reduceNeighbored" 60
screen | grep -Eq '^  n = 16777216 .{64}>$'
check "80x24: a line cut at the screen's edge ends in a > mark in column 80" $?
screen | sed -n 24p | grep -Eq '^PASS: 1\.82x over .{60}\.\.\.$'
check "80x24: a status message longer than the screen ends in ..." $?
tmux_keys Home # a key clears the status message
sleep 0.3
expect_eq "80x24: the status line says Right shows the rest" \
    "$(screen | sed -n 24p | grep -c 'Right: the rest of the lines marked >')" 1
tmux_keys Right
sleep 0.3
screen | grep -q '^<'
check "80x24: scrolled right, lines that start before the edge begin with <" $?
tmux_keys Left
# the result view's keys: g grades again and the new result takes the old one's place
wait_screen "80x24: the result view's keys, from its key table" \
    "Enter next exercise (after a PASS)  g grade again  c cancel"
report less-starter.json
tmux_keys g
wait_screen "80x24: g in the result view grades again" "SLOW  1.00x over" 60
tmux_keys q
wait_screen "80x24: one q from the new result: the exercise view, not the old result" \
    "Status: passed"
tmux_end

# --- 120x40: after a PASS, Enter opens the next exercise ------------------------------
report less-ref.json
menu_at 120 40
tmux_keys g
wait_screen "120x40: PASS" "PASS  1.82x over reduceNeighbored" 60
screen | grep -Eq '^  student .* 1\.82x$'
check "120x40: the table fits: the student's row whole" $?
expect_eq "120x40: nothing cut, no Right hint" "$(screen | grep -c 'Right: the rest')" 0
next=$(cudalab list --ids | awk -v e="$less" 'f { print; exit } $0 == e { f = 1 }')
tmux_keys Enter
wait_screen "120x40: Enter after a PASS: the next exercise not passed ($next)" "($next)"
tmux_keys q
wait_screen "120x40: q from it goes home (the passed exercise's views gave way)" " cudalab  home"
tmux_end

# --- the chapter texts at 120x40: the course notes introduced, occupancy's figures ----------
TMUX_COLS=120 TMUX_ROWS=40 tmux_start bash -c '"$0"; echo EXITED; sleep 60' "$CUDALAB_TEST_BIN"
wait_screen "chapters: the menu" "Progress:"
tmux_keys / "Warp execution  (chapter" Enter Enter
wait_screen "warp, the first chapter, says what the notes are" \
    "The chapters follow a set of course notes, Korean and Chinese lecture notes on CUDA"
tmux_keys q / "Resources, latency hiding and occupancy  (chapter" Enter Enter
tmux_keys / "blocks per SM" Enter
wait_screen "occupancy: Fermi's block limit is 8, Kepler's 16" "(8 on Fermi, 16 on Kepler, 32 on the H100)"
tmux_keys / "Fermi C2070 (notes)" Enter
wait_screen "occupancy: Little's law's rows from the table of figures, cut at 120 columns" \
    "| 96 in the notes, 156 by their inputs | 125 KB    | 31 250>"
tmux_keys Right
wait_screen "occupancy: the C2070's warps per SM over its 14 SMs, the rest of the row" "| 579   | 41 >"
tmux_keys Left / "The SMs." Enter
wait_screen "occupancy: says how per SM is counted" "and got 36; their C2070 has 14."
tmux_end
run cudalab show occupancy/calculator
expect_out "calculator: the kernel's shared memory has a name of its own" \
    "int maxActiveBlocksPerSM(const OccDevice *dev, int threadsPerBlock, int regsPerThread, int smemBytes);"
expect_out "calculator: apart from the device's limit" "dev->smemPerBlock"
run cudalab show reduction/neighbored
expect_out_lacks "neighbored: no double negative" "nor no"

e2e_finish
