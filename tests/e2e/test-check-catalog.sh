#!/bin/bash
# e2e-timeout: 600
# make test runs check-exercise over the whole catalog: on a machine without a
# GPU it checks the manifests, the files, compile errors and constraints
# exactly and the rest by verdict class (on the simulator, where the lab has
# one, correctness too), and says aloud that speed was not checked.  Every
# step of the reduction chapter ships at least one ok, three wrong and two
# cheat examples (about 150 gradings: hence the longer time limit).
set -u
. "$(dirname "$0")/lib.sh"

# the simulator (where there is one) at sizes up to 2^16: every example is
# wrong well below that, and the sanitized simulator is slow
export CUDALAB_SIM_MAX_SIZE=65536
# --- the whole catalog, as make test runs it ---
run cudalab check-exercise --all
expect_status "check-exercise --all: the catalog is good" 0
expect_out_re "check-exercise --all: summary with 0 failed" '^check-exercise: [0-9]+ checks, [0-9]+ examples, 0 failed'
expect_out "check-exercise --all: says speed was not checked without a GPU" \
    "not run on a GPU: speed was not checked"
n=$(sed -n 's/^check-exercise: [0-9]* checks, \([0-9]*\) examples.*/\1/p' <<<"$OUT")
steps=$(ls -d "$CUDALAB_DATADIR_TEST"/exercises/reduction/*/ | wc -l)
[ "${n:-0}" -ge $((6 * steps)) ]
check "check-exercise --all: graded the reduction examples ($n for $steps steps)" $?
# the chapter's rule, per step: no "each step should have" note for reduction/
! grep -Eq "exercises/reduction/.*each step should have" <<<"$OUT"
check "check-exercise --all: every reduction step has 1 ok, 3 wrong and 2 cheat examples" $?
# and every example was graded to the verdict it names, none skipped as unparsable
expect_out_lacks "check-exercise --all: every example names its verdict" "must name the expected verdict"
e2e_finish
