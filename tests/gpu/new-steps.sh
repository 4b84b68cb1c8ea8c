#!/bin/bash
# tests/gpu/new-steps.sh LOGDIR: the GPU evidence for the steps issue 37 added, in one command
# (under 5 minutes on an H200), every log in LOGDIR:
#   gpu.txt            nvidia-smi's name of the GPU, the driver, nvcc's version
#   times.jsonl        tests/gpu/record-times.sh on the new steps (reference, starter, examples):
#                      the times the performance model is refitted with (see below)
#   profile-EX.txt     `cudalab profile` of each step's reference: Nsight Compute's counters
#                      (bank conflicts, branch efficiency) beside the previous step's and the
#                      simulator's (profile-EX.sim.txt, CUDALAB_BACKEND=sim)
#   repeat.txt         tests/gpu/repeat.sh 20 on the new steps: reference 20/20, starter 0/20
# The last line: "new-steps: N failed" (0: the repeat and every record succeeded).
#
# Then, on any machine, with the GPU that gpu.txt names:
#  - an H100 (the model's fit is the H100's): add the lines to the fit's training set, refit, check:
#      cat LOGDIR/times.jsonl >>tests/fixtures/model/h100-times.jsonl
#      python3 tests/model/collect.py counts.jsonl --from tests/fixtures/model/h100-times.jsonl
#      python3 tests/model/fit.py tests/fixtures/model/h100-times.jsonl counts.jsonl --write \
#          --gpu kernels/gpus/h100.ini --check --table docs/bench/model.md
#  - an H200: the H100-fitted model's prediction of the new steps (no --write: not a training set):
#      python3 tests/model/collect.py counts.jsonl --from LOGDIR/times.jsonl
#      python3 tests/model/fit.py LOGDIR/times.jsonl counts.jsonl --name H200
# and put the measured times into the three tasks' tables (they say "not recorded yet").
# Without a GPU it runs what it can (the simulator's profiles) and says what it skipped.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${CUDALAB_BIN:-$root/bin/cudalab}
log=${1:?usage: new-steps.sh LOGDIR}
mkdir -p "$log"
# the steps, in the order the issue's session took them: one list for every part below
STEPS=${NEW_STEPS:-"reduction/sum-tournament-strided divergence/long-branch reduction/warp-reduce"}
failed=0

{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv 2>&1
  nvcc --version 2>&1 | tail -2; } >"$log/gpu.txt"
gpu=false
nvidia-smi -L >/dev/null 2>&1 && gpu=true
echo "GPU: $($gpu && nvidia-smi --query-gpu=name --format=csv,noheader | head -1 || echo none)"

for ex in $STEPS; do
    ch=${ex%%/*} name=${ex#*/} f=${ex//\//-}
    # on a GPU, ncu's counters (profile exits 0); without one, profile says so, exits 1 and
    # shows the simulator's figures: both files must hold a kernel's figures
    rc=0
    "$bin" profile "$ex" "$root/solutions/$ch/$name.cu" >"$log/profile-$f.txt" 2>&1 || rc=$?
    if { $gpu && [ "$rc" -ne 0 ]; } || ! grep -q 'figures' "$log/profile-$f.txt"; then
        echo "profile $ex failed (exit $rc)"; failed=$((failed + 1))
    fi
    CUDALAB_BACKEND=sim "$bin" profile "$ex" "$root/solutions/$ch/$name.cu" >"$log/profile-$f.sim.txt" 2>&1
    grep -q 'the simulator.s PTX-level figures' "$log/profile-$f.sim.txt" ||
        { echo "simulator profile $ex failed"; failed=$((failed + 1)); }
done

if $gpu; then
    # shellcheck disable=SC2086
    "$root/tests/gpu/record-times.sh" "$log/times.jsonl" $STEPS >"$log/record-times.txt" 2>&1
    tail -1 "$log/record-times.txt"
    grep -q ' 0 failed$' "$log/record-times.txt" || failed=$((failed + 1))
    # shellcheck disable=SC2086
    REPEAT_JOBS=${REPEAT_JOBS:-4} "$root/tests/gpu/repeat.sh" 20 $STEPS >"$log/repeat.txt" 2>&1 ||
        failed=$((failed + 1))
    cat "$log/repeat.txt"
else
    echo "no GPU: skipped record-times.sh and repeat.sh 20 (the profiles are the simulator's)"
fi
echo "new-steps: $failed failed"
[ "$failed" -eq 0 ]
