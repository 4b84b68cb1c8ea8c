#!/bin/bash
# Output on a terminal and through a pipe: colour and progress lines only on a
# terminal (a pty made by script(1)), NO_COLOR honoured (set and not empty:
# no colour; progress stays), nothing extra when piped; for the reports laid
# out by lab/report (grade, inspect; demo in test-demo.sh) too.
set -u
. "$(dirname "$0")/lib.sh"
# the GPU backend asked for: with no GPU the grading ends in NO_GPU
export CUDALAB_BACKEND=cuda

ESC=$'\033'
# tty_run CMD...: CMD on a pseudo-terminal (stdout and stderr both); its output in $OUT.
tty_run() {
    local cmd
    cmd=$(printf '%q ' "$@")
    run script -qec "$cmd" /dev/null </dev/null
}
has_sgr() { grep -q "$ESC\[[0-9;]*m" <<<"$1"; }

cudalab start reduction/neighbored >/dev/null

tty_run "$CUDALAB_TEST_BIN" list
has_sgr "$OUT"
check "list on a terminal: colour" $?
NO_COLOR=1 tty_run "$CUDALAB_TEST_BIN" list
! has_sgr "$OUT"
check "list with NO_COLOR=1: no colour" $?
expect_out "list with NO_COLOR=1: the same text" "Parallel reduction  (reduction)"
NO_COLOR= tty_run "$CUDALAB_TEST_BIN" list
has_sgr "$OUT"
check "list with NO_COLOR empty: colour (no-color.org)" $?

tty_run "$CUDALAB_TEST_BIN" grade reduction/neighbored
expect_out "grade on a terminal: progress" "compiling work/reduction/neighbored.cu ..."
has_sgr "$OUT"
check "grade on a terminal: colour" $?
NO_COLOR=1 tty_run "$CUDALAB_TEST_BIN" grade reduction/neighbored
expect_out "grade with NO_COLOR: progress stays" "compiling work/reduction/neighbored.cu ..."
! has_sgr "$OUT"
check "grade with NO_COLOR: no colour" $?
tty_run "$CUDALAB_TEST_BIN" grade reduction/neighbored --json
expect_out_lacks "grade --json on a terminal: no progress" "compiling"
! has_sgr "$OUT"
check "grade --json on a terminal: no colour" $?

run cudalab grade reduction/neighbored
expect_out_re "grade piped: the verdict" '^NO_GPU  '
expect_eq "grade piped: nothing on stderr" "$ERR" ""
! grep -q "$ESC" <<<"$OUT"
check "grade piped: no escape sequence" $?

# the reports laid out once (lab/report): styles become colours on a terminal only
sol=$E2E_SRC/solutions/reduction/neighbored.cu
tty_run "$CUDALAB_TEST_BIN" inspect reduction/neighbored "$sol" --ptx
expect_out "inspect on a terminal: the listing" "PTX (nvcc -ptx -lineinfo), source lines interleaved"
has_sgr "$OUT"
check "inspect on a terminal: colour" $?
NO_COLOR=1 tty_run "$CUDALAB_TEST_BIN" inspect reduction/neighbored "$sol" --ptx
expect_out "inspect with NO_COLOR: the same listing" "PTX (nvcc -ptx -lineinfo), source lines interleaved"
! grep -q "$ESC" <<<"$OUT"
check "inspect with NO_COLOR: no escape sequence" $?
run cudalab inspect reduction/neighbored "$sol" --ptx
expect_status "inspect piped" 0
! grep -q "$ESC" <<<"$OUT"
check "inspect piped: no escape sequence" $?

tty_run "$CUDALAB_TEST_BIN" doctor
expect_out "doctor on a terminal: progress" "checking GPU ..."
has_sgr "$OUT"
check "doctor on a terminal: colour" $?
NO_COLOR=1 tty_run "$CUDALAB_TEST_BIN" doctor
! has_sgr "$OUT"
check "doctor with NO_COLOR: no colour" $?
run cudalab doctor
expect_eq "doctor piped: nothing on stderr" "$ERR" ""
! grep -q "$ESC" <<<"$OUT"
check "doctor piped: no escape sequence" $?

e2e_finish
