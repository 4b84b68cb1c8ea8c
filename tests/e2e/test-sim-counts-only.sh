#!/bin/bash
# The driver's --counts-only (the performance model's run beside a grading on the simulator,
# issue 22): the simulator's checks are off, so a kernel's findings are not looked for, and every
# count the model reads is the same as with the checks.  The kernel: neighbored-less's
# barrier-in-branch example, whose findings the checks report.
set -u
. "$(dirname "$0")/lib.sh"

nvcc -ptx -arch=sm_90 -O3 -lineinfo -o k.ptx \
    "$CUDALAB_DATADIR_TEST/exercises/reduction/neighbored-less/examples/wrong/barrier-in-branch.cu"
check "the example builds" $?
drv=$CUDALAB_LIBEXECDIR_TEST/cudalab-driver

# drive REPORT [OPTION]: the student's run at two sizes; its report in REPORT
drive() {
    local report=$1
    shift
    run bash -c '"$@" 3>'"$report" _ "$drv" reduce-int --backend=sim --report-fd=3 \
        --lab-kernels="$CUDALAB_LIBEXECDIR_TEST/lab-kernels.ptx" --student=k.ptx --reference=k.ptx \
        --kernel=reduceNeighboredLess --entry=_Z20reduceNeighboredLessPiS_j --baseline=cpu \
        --block=512 --sizes=1000,70000 --seed=11 --student-only "$@"
    expect_status "driver ${*:-without options}: exit 0" 0
}

drive checked.json
drive counts.json --counts-only
OUT=$(<checked.json)
expect_json "with the checks: the divergent barrier found at every size" \
    'all(m["findings"] > 0 for m in j["sim_metrics"]) and
     all(not c["correct"] and "barrier in divergent code" in c["detail"] for c in j["cases"])'
OUT=$(<counts.json)
expect_json "--counts-only: no findings, the values checked as they came out" \
    'all(m["findings"] == 0 for m in j["sim_metrics"]) and all(c["correct"] for c in j["cases"])'
OUT=$(python3 -c 'import json, sys
a, b = (json.load(open(f))["sim_metrics"] for f in sys.argv[1:])
for m in a + b:
    del m["findings"]
print(json.dumps({"same": a == b, "n": len(a)}))' checked.json counts.json)
expect_json "--counts-only: every other count the same as with the checks" 'j["same"] and j["n"] == 2'

e2e_finish
