#!/bin/bash
# e2e-timeout: 1200
# The performance model against the H100 (issue 20): the simulator's counts of every file
# that tests/fixtures/model/h100-times.jsonl holds an H100 time of, taken now by the lab under
# test, made times by the model with the parameters of kernels/gpus/h100.ini, must stay within
# the bounds (median absolute error <= 10 %, >= 90 % within +-20 %, the verdicts the H100's
# for >= 95 % of the files and for every reference and starter): a change to the simulator's
# counts or to the model that drifts past them fails here.  Also: the untouched starters of
# the speed steps are never PASS on the simulator, and counts taken at 2^18 elements and
# scaled agree with the student's counts at the largest size the simulator ran (2^19 here);
# --gpu h200 models the H200's memory, an unknown GPU is refused.
set -u
. "$(dirname "$0")/lib.sh"

times=$FIXTURES/model/h100-times.jsonl
export CUDALAB_MODEL_LIB=${CUDALAB_MODEL_LIB:-$E2E_SRC/build/tools/libcudalab-model.so}
[ -f "$CUDALAB_MODEL_LIB" ]
check "the model's library for the fit script is built ($CUDALAB_MODEL_LIB)" $?

# the model runs at 2^16 and 2^18 elements whatever the cap; 2^19 halves the sanitized build's
# time for the rest of each grading and leaves a larger size for the scaling check below
# two gradings at a time: a grading's nvcc runs alone, and its two simulator runs share the cores
CUDALAB_SIM_MAX_SIZE=524288 CUDALAB_BIN=$CUDALAB_TEST_BIN \
    run python3 "$E2E_SRC/tests/model/collect.py" "$T/counts.jsonl" -j 2 --from "$times"
expect_status "the simulator's counts of every timed file" 0
expect_eq "one line of counts per recorded file" "$(wc -l <"$T/counts.jsonl")" "$(wc -l <"$times")"

run python3 "$E2E_SRC/tests/model/fit.py" "$times" "$T/counts.jsonl" --check
expect_status "the model stays within issue 20's bounds on the H100's times" 0
expect_out_re "fit.py says how close" '^model: [0-9]+ kernels, median error [0-9.]+ %'

# the eight starters issue 20 names: none passes a speed step on the simulator
for ex in reduction/neighbored-less reduction/interleaved reduction/sum-reversed \
    reduction/sum-add-first divergence/evenodd divergence/soa occupancy/block-size \
    blockshape/fastest-shape; do
    v=$(python3 -c '
import json, sys
for line in open(sys.argv[1]):
    c = json.loads(line)
    if c["exercise"] == sys.argv[2] and c["file"].endswith("/starter.cu"):
        print(c["verdict"])' "$T/counts.jsonl" "$ex")
    case $v in SLOW | NO_GPU) true ;; *) false ;; esac
    check "$ex: the untouched starter does not pass on the simulator ($v)" $?
done

# scaling: the counts of 2^18 elements, scaled to the timing size, against the student's own
# counts at the largest simulated size scaled the same way (a grid that grows with the work)
run python3 - "$T/counts.jsonl" <<'PY'
import json, sys
bad = n = 0
for line in open(sys.argv[1]):
    c = json.loads(line)
    m = c.get("model")
    if not m or "metrics" not in c or c["exercise"].startswith("blockshape/"):
        continue
    s = m["roles"]["student"]["counts"]
    k = m["timed_size"] / c["size"]
    if s["blocks"] < 0.5 * c["grid"] * k:  # a fixed grid: its part per launch grows with the SMs
        continue
    for key in ("warp_insts", "gld_requests", "gld_sectors", "gst_sectors", "shared_wavefronts"):
        want = c["metrics"][key] * k
        n += 1
        if abs(s[key] - want) > 0.02 * max(want, 1000):
            bad += 1
            print("%s %s %s: scaled %.0f, from n = %d %.0f" % (c["exercise"], c["file"], key, s[key], c["size"], want))
print("%d compared, %d off by more than 2 %%" % (n, bad))
sys.exit(bad > 0 or n < 100)
PY
expect_status "counts scaled from 2^18 elements match those of 2^19 within 2 %" 0

# --gpu NAME: the model of kernels/gpus/NAME.ini, named in the verdict; the H200 (the H100's
# fit with 4.8 TB/s of HBM3e for 3352 GB/s) moves a reference's memory bound by 3352/4800, and
# models it faster than the H100
ex=reduction/unrolling8
CUDALAB_SIM_MAX_SIZE=524288 run cudalab grade $ex "$E2E_SRC/solutions/$ex.cu" --no-record --json --gpu h200
expect_json "--gpu h200: modelled for an H200, its error not measured" \
    'j["verdict"] == "PASS" and j["model"]["gpu"] == "H200"
     and j["message"].startswith("modelled for an H200, not measured (its error not yet measured)")'
h100=$(python3 -c '
import json, sys
for line in open(sys.argv[1]):
    c = json.loads(line)
    if c["file"] == sys.argv[2]:
        r = c["model"]["roles"]["reference"]
        print(r["ns"], r["bounds_ns"]["memory"])' "$T/counts.jsonl" "solutions/$ex.cu")
expect_json "--gpu h200: the reference's memory bound at the H200's bandwidth, its time below the H100's ($h100)" \
    "(r := j['model']['roles']['reference']) and (h := [float(x) for x in '$h100'.split()])
     and abs(r['bounds_ns']['memory'] - h[1] * 3352.32 / 4800) < 0.01 * h[1] and r['ns'] < 0.95 * h[0]"
run cudalab grade $ex "$E2E_SRC/solutions/$ex.cu" --no-record --gpu a100
expect_status "--gpu a100: the lab's error" 2
expect_err "--gpu a100: refused with the GPUs the model knows" \
    "unknown GPU 'a100': the model knows h100, h200"
run cudalab grade $ex "$E2E_SRC/solutions/$ex.cu" --no-record --gpu ../gpus/h100
expect_status "--gpu with a path: refused, never read" 2

e2e_finish
