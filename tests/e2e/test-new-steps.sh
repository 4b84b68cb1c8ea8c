#!/bin/bash
# e2e-timeout: 600
# The steps issue 37 added (the notes' experiments that were read but not graded): on the
# simulator, with the performance model (a cap of 2^18, the model's size), each reference is
# PASS and each untouched starter is not -- the verdict a student without a GPU gets.  The
# steps' GPU evidence (20/20 and 0/20, the ncu counters) is tests/gpu/new-steps.sh's.
set -u
. "$(dirname "$0")/lib.sh"

src=$CUDALAB_DATADIR_TEST
STEPS="reduction/sum-tournament-strided divergence/long-branch reduction/warp-reduce"

for ex in $STEPS; do
    ch=${ex%%/*} name=${ex#*/}
    CUDALAB_SIM_MAX_SIZE=262144 run cudalab grade "$ex" "$src/solutions/$ch/$name.cu" --json --no-record
    expect_json "$ex: the reference is PASS on modelled times" \
        'j["verdict"] == "PASS" and "modelled" in j["message"]'
    CUDALAB_SIM_MAX_SIZE=262144 run cudalab grade "$ex" "$src/exercises/$ch/$name/starter.cu" --json --no-record
    expect_json "$ex: the untouched starter is not PASS on the simulator" 'j["verdict"] != "PASS"'
done

# (profile exits 1 where Nsight Compute is missing, and shows the simulator's figures)
# the bank-conflict step shows its conflicts: the simulator's count of the reference's extra
# shared-memory passes at n = 65536 (64 full blocks of 465: 155 for each of the loop's two loads
# and its store), none for the tournament before it
run cudalab profile reduction/sum-tournament-strided "$src/solutions/reduction/sum-tournament-strided.cu"
got=$(awk '/figures at n =/ { k = $1 } /shared_ld_bank_conflict/ { print k, $2 }' <<<"$OUT" | sort -u | tr '\n' ' ')
expect_eq "the strided tournament's bank conflicts, the tournament's none" "$got" \
    "sumTournament 0.00 sumTournamentStrided 29760.00 "
# the long branch: split by lane, the branch on the parity divides every warp (75 %: the other
# branches stay uniform); warp-uniform, none divides (full blocks, no tail)
run cudalab profile divergence/long-branch "$src/exercises/divergence/long-branch/starter.cu"
got=$(awk '/figures at n =/ { k = $2 == "(your" ? "starter" : "reference" } /^  branch_efficiency/ { print k, $2 }' <<<"$OUT" | tr '\n' ' ')
expect_eq "branch efficiency: the starter's, then the reference's" "$got" "starter 75.00 reference 100.00 "
e2e_finish
