#!/bin/bash
# tests/gpu/issue-32.sh - issue 32's examples on a GPU, in one command (logs to $OUT or a temp
# dir): every example of the exercises that got one (each case of the issue and a variant in
# another exercise) graded and compared with its expected verdict, then `cudalab check-exercise`
# of those exercises (solution, starter and every example), then the GPU side of the warp-tile
# fixture recorded again for comparison (buffers only).  Proof: "grade-examples: 20 of 20 as
# expected", "check-exercise: ... 0 failed", and the recording's buffers equal
# tests/fixtures/sim-diff/tests_sim_warp-tiles.json's (the diff at the end prints nothing).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
# the examples of issue 32's cases
new="exercises/reduction/complete-unroll-warps8/examples/cheat/recursion.cu
    exercises/reduction/complete-unroll-warps8/examples/ok/cg-reduce-tile16.cu
    exercises/reduction/complete-unroll-warps8/examples/ok/reduce-add-half-masks.cu
    exercises/reduction/complete-unroll-warps8/examples/ok/tile8-shuffles.cu
    exercises/reduction/complete-unroll/examples/cheat/recursion.cu
    exercises/reduction/interleaved/examples/cheat/inline-red-shared.cu
    exercises/reduction/interleaved/examples/cheat/reduce-add-sync.cu
    exercises/reduction/neighbored-less/examples/wrong/malloc-past-block.cu
    exercises/reduction/sum-atomic/examples/ok/spin-lock-per-block.cu
    exercises/reduction/sum-reversed/examples/wrong/unwritten-slots.cu
    exercises/reduction/sum-shared-atomic/examples/ok/shared-spin-lock.cu
    exercises/reduction/sum-shuffle/examples/wrong/full-mask-half-warp.cu
    exercises/reduction/sum-tournament/examples/cheat/inline-red-shared.cu
    exercises/reduction/sum-tournament/examples/wrong/malloc-past-block.cu
    exercises/reduction/sum-tournament/examples/wrong/unwritten-slots.cu
    exercises/reduction/unroll-warps8/examples/ok/cg-reduce-tile16.cu
    exercises/reduction/unroll-warps8/examples/ok/reduce-add-half-masks.cu
    exercises/reduction/unroll-warps8/examples/ok/tile16-shuffles.cu
    exercises/reduction/unroll-warps8/examples/wrong/full-mask-half-warp.cu
    exercises/reduction/unrolling2/examples/cheat/cg-reduce.cu"
exercises="complete-unroll complete-unroll-warps8 interleaved neighbored-less sum-atomic sum-reversed sum-shared-atomic sum-shuffle sum-tournament unroll-warps8 unrolling2"
status=0
# shellcheck disable=SC2086
OUT=$out tests/gpu/grade-examples.sh $new 2>&1 | tee "$out/grade-examples.log" | tail -25
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
ids=$(for e in $exercises; do echo "reduction/$e"; done)
# shellcheck disable=SC2086
bin/cudalab check-exercise $ids >"$out/check-exercise.log" 2>&1 || status=1
tail -5 "$out/check-exercise.log"
SIM_DIFF_NCU=0 SIM_DIFF_FILES=tests/sim/warp-tiles.cu tests/gpu/record-sim.sh "$out/fixtures" \
    >"$out/record.log" 2>&1 || status=1
python3 - "$out"/fixtures/tests_sim_warp-tiles.json tests/fixtures/sim-diff/tests_sim_warp-tiles.json <<'PY' || status=1
import json, sys
try:
    new, old = (json.load(open(p)) for p in sys.argv[1:3])
except Exception as e:
    print("no new recording: %s" % e); sys.exit(1)
bufs = lambda j: {k["name"]: [b["words"] for b in k.get("buffers", [])] for k in j["kernels"]}
a, b = bufs(new), bufs(old)
bad = [k for k in b if a.get(k) != b[k]]
for k in bad:
    print("differs from the fixture: %s" % k)
print("warp-tiles: %d of %d kernels' buffers equal the fixture" % (len(b) - len(bad), len(b)))
sys.exit(1 if bad else 0)
PY
exit $status
