#!/bin/bash
# The course's figures come from one table (docs/numbers.ini, docs/design/numbers.md): a text
# names a figure {{name}} and the lab shows the table's value there, in every language and
# every place a learner reads (show, hint, the questions); a manifest's grading threshold is
# named the same way; a name the table does not have, or a broken table, is a problem of the
# catalog with its file and line, and check-exercise fails a translation that names one.
set -u
. "$(dirname "$0")/lib.sh"

# the course itself: a task, its translation and the chapter's numbers agree by construction
run cudalab show reduction/single-pass
expect_status "show the single-pass task" 0
want=$(awk '/^\[/ { s = $0 } s == "[h100.bench.reduce]" && $1 == "single_pass.us" { print $3 }' \
    "$CUDALAB_DATADIR_TEST/docs/numbers.ini")
expect_out_re "the task shows the table's single-pass time, not a name" \
    "the reference reduceSinglePass \\| $want +\\|"
expect_out_lacks "no figure left unfilled" "{{"
run env LC_ALL=C.UTF-8 LANGUAGE=ko "$CUDALAB_TEST_BIN" show reduction/single-pass
expect_out_re "the Korean task shows the same figure" "reduceSinglePass \\| $want +\\|"
expect_out_lacks "... with every name filled in" "{{"
run cudalab show reduction/unrolling2
expect_out "a grading threshold is the manifest's" \
    "needs $(sed -n "s/^min_speedup *= *//p" "$CUDALAB_DATADIR_TEST/exercises/reduction/unrolling2/exercise.ini")× over"

# --- a course of our own: a figure in a task, a hint and a question ---
data=$T/data
copy_datadir "$data"
export CUDALAB_DATADIR=$data
ex=$data/exercises/warp/thread-ids
find "$data" \( -name '*.ko.*' -o -name '*.zh_CN.*' \) -delete
cat >>"$data/docs/numbers.ini" <<'EOF'

[test.figures]
source = tests/e2e/test-figures.sh
gpu = none
date = 2026-11-28
answer.us = 42.5
EOF
printf '\nThe lab measured {{test.figures.answer.us}} µs; pass with {{reduction/unrolling2.min_speedup}}×.\n' \
    >>"$ex/task.md"
printf '\nOn the H100: {{test.figures.answer.us}} µs.\n' >>"$ex/hints.md"
sed -i 's/^prompt = A block of 40 x 2 threads: how many warps does it occupy?/prompt = A block of 40 x 2 threads ({{test.figures.answer.us}} µs): how many warps?/' \
    "$data/exercises/warp/questions.ini"
run cudalab show warp/thread-ids
expect_status "show a task that names figures" 0
expect_out "the task shows the table's value and the manifest's threshold" \
    "The lab measured 42.5 µs; pass with 1.30×."
run cudalab hint warp/thread-ids 2
expect_out "the hint shows the value" "On the H100: 42.5 µs."
run cudalab predict warp --json
expect_json "a question's prompt shows the value" \
    '[q["prompt"] for q in j["questions"] if q["id"] == "warps-40x2"] == ["A block of 40 x 2 threads (42.5 µs): how many warps?"]'
run cudalab list
expect_status "list" 0
[ -z "$ERR" ]
check "list reports no problem when every name is known" $?

# --- a name the table does not have ---
echo 'And {{test.figures.nothing}}.' >>"$ex/task.md"
line=$(wc -l <"$ex/task.md")
run cudalab list
expect_err "list names the task's file and line" \
    "$ex/task.md:$line: unknown figure 'test.figures.nothing' (not in docs/numbers.ini)"
run cudalab show warp/thread-ids
expect_status "show refuses the task" 2
expect_err "and says why" "task.md:$line: unknown figure 'test.figures.nothing'"
sed -i '$d' "$ex/task.md"
echo '{{ oops' >>"$ex/hints.md"
run cudalab list
expect_err "a '{{' that starts no name, in a hint" "hints.md, hint 2:"
expect_err "... is told" "'{{' starts no figure's name"
sed -i '$d' "$ex/hints.md"

# --- a translation that names an unknown figure fails check-exercise ---
. "$E2E_SRC/tests/e2e/l10n.sh"
{ l10n_marker "$ex/task.md"; sed 's/{{test.figures.answer.us}}/{{test.figures.wrong.us}}/' "$ex/task.md"; } \
    >"$ex/task.ko.md"
run cudalab check-exercise --translations warp/thread-ids
expect_status "check-exercise --translations fails" 1
expect_out_re "it names the translation's line and figure" \
    "$ex/task.ko.md:[0-9]+: unknown figure 'test.figures.wrong.us'"
rm "$ex/task.ko.md"

# --- a broken table ---
echo 'this is no key' >>"$data/docs/numbers.ini"
tline=$(wc -l <"$data/docs/numbers.ini")
run cudalab list
expect_err "a broken table is a problem with its line" "$data/docs/numbers.ini:$tline: not a line of an INI file"
expect_err "... and the figures it should give are unknown" "unknown figure 'test.figures.answer.us'"
e2e_finish
