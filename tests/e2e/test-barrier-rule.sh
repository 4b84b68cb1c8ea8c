#!/bin/bash
# The early-return rule, one rule everywhere (docs/design/simulator.md, "which rule the lab
# follows"): a thread that returns before a __syncthreads() has exited and is not waited for
# (the PTX ISA's bar.sync; the CUDA Programming Guide since Volta), so the notes' early return
# with the partner bounded PASSes on the simulator; a __syncthreads() that running threads skip
# is WRONG, with advice that says so.  And the texts a student reads say the same.
set -u
. "$(dirname "$0")/lib.sh"

export CUDALAB_SIM_MAX_SIZE=65536 # the sanitized simulator is slow; the tail cases stay
nb=reduction/neighbored
ex=$CUDALAB_DATADIR_TEST/exercises/$nb

run cudalab grade $nb "$ex/examples/ok/early-return.cu" --sim --no-record --json
# (correct; below the model's sizes the simulator gives no speed verdict: NO_GPU)
expect_json "early return, partner bounded: correct on the simulator" \
    'j["verdict"] == "NO_GPU" and j["message"].startswith("correct on the simulator")'

run cudalab grade $nb "$ex/examples/wrong/barrier-in-branch.cu" --sim --no-record --json
expect_json "a barrier the running threads skip: WRONG, the simulator's barrier check" \
    'j["verdict"] == "WRONG" and "barrier in divergent code" in j["message"]'
expect_json "its advice: move the barrier out of the if, an exited thread is not waited for" \
    '"move it out of the if" in j["advice"] and "a thread that has returned is not waited for" in j["advice"]'

# the notes' kernel as printed: WRONG for the partner past n, not for the return
run cudalab grade $nb "$ex/starter.cu" --sim --no-record --json
expect_json "the starter: WRONG for its values, no barrier finding" \
    'j["verdict"] == "WRONG" and "barrier" not in j["message"]'

# the texts: nothing tells the student that the early return itself is the bug
texts=("$ex/task.md" "$ex/hints.md" "$CUDALAB_DATADIR_TEST/exercises/reduction/interleaved/task.md"
    "$CUDALAB_DATADIR_TEST/docs/reduction.md")
! grep -n -i -E "remove the early|not allowed in CUDA|return early after it|both are wrong" "${texts[@]}"
check "no text calls the early return itself the bug" $?
for f in "${texts[@]}"; do
    grep -q -i "exited" "$f"
    check "${f#"$CUDALAB_DATADIR_TEST"/}: says a thread that returned has exited" $?
done
run cudalab hint $nb 2
expect_out "hint 2: the early return may stay" "may stay"
e2e_finish
