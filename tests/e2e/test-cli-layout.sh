#!/bin/bash
# The CLI on a terminal, in tmux at 80x24 and 120x40: show and hint lay their Markdown out
# for the terminal (no word split at its edge, no Markdown marks, at most 100 columns), and
# grade's verdict wraps under its cause with the points whole.
set -u
. "$(dirname "$0")/lib.sh"
# grading here means compile-and-NO_GPU: no simulator run (test-grade-sim.sh has those)
export CUDALAB_BACKEND=cuda
. "$E2E_SRC/tests/e2e/tmux.sh"

hints=$CUDALAB_DATADIR_TEST/exercises/reduction/neighbored/hints.md

# words_whole SCREEN: every word on the screen is a word of the hints' source (a word the
# terminal split at its edge is not), and no Markdown mark is left
words_whole() {
    python3 - "$hints" "$1" <<'EOF'
import re, sys
src = open(sys.argv[1]).read()
words = set(re.findall(r"[A-Za-z]+", src))
screen = open(sys.argv[2]).read()
bad = [w for w in re.findall(r"[A-Za-z]+", screen) if w not in words and w not in
       ("EXITED", "Hint", "of", "for", "reduction", "neighbored", "next", "cudalab", "hint")]
marks = [l for l in screen.splitlines() if "`" in l or "**" in l]
if bad or marks:
    sys.exit("split words: %s; Markdown marks: %s" % (bad[:5], marks[:2]))
EOF
}

for size in 80x24 120x40; do
    cols=${size%x*}
    TMUX_COLS=$cols TMUX_ROWS=${size#*x} tmux_start bash -c \
        '"$0" hint reduction/neighbored 1; echo EXITED; sleep 60' "$CUDALAB_TEST_BIN"
    wait_screen "$size: hint 1" "EXITED"
    screen >"$T/hint-$cols.txt"
    why=$(words_whole "$T/hint-$cols.txt" 2>&1)
    check "$size: hint: no word split at the edge, no Markdown mark${why:+ ($why)}" $?
    longest=$(awk '{ if (length($0) > n) n = length($0) } END { print n }' "$T/hint-$cols.txt")
    if [ "$cols" = 80 ]; then
        [ "$longest" -le 80 ] && [ "$longest" -gt 60 ]
        check "80x24: hint laid out for 80 columns (longest line $longest)" $?
    else
        [ "$longest" -gt 80 ] && [ "$longest" -le 100 ]
        check "120x40: hint laid out wider than 80, at most 100 (longest line $longest)" $?
    fi
    tmux_end

    TMUX_COLS=$cols TMUX_ROWS=${size#*x} tmux_start bash -c \
        'cd "$0" && "$1" grade reduction/neighbored "$2" --no-record; echo EXITED; sleep 60' \
        "$T" "$CUDALAB_TEST_BIN" "$CUDALAB_DATADIR_TEST/solutions/reduction/neighbored.cu"
    wait_screen "$size: grade" "EXITED" 60
    screen | grep -Eq '^NO_GPU  compiled for '
    check "$size: the verdict" $?
    screen | grep -Eq '( |^)0/10 points$'
    check "$size: the points whole at the end of the verdict's last line" $?
    expect_eq "$size: no line starts with the rest of a cut word or the points" \
        "$(screen | grep -cE '^(points|[a-z]+ 0/10)')" 0
    tmux_end
done

e2e_finish
