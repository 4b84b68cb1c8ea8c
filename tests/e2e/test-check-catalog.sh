#!/bin/bash
# make test runs check-exercise over the whole catalog: on a machine without a
# GPU it checks the manifests, the files, compile errors and constraints
# exactly and the rest by verdict class (on the simulator, where the lab has
# one, correctness too), and says aloud that speed was not checked.
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
n=$(grep -o '[0-9]* examples' <<<"$OUT" | cut -d' ' -f1)
[ "${n:-0}" -ge 12 ]
check "check-exercise --all: graded the reduction examples ($n)" $?
e2e_finish
