#!/bin/bash
# The reduce-float driver's own logic without a GPU: a stand-in libcuda
# (tests/fakecuda/fakecuda.c, built here) runs the family's contract on the
# host, and the real, sanitized driver must tell the two ways of giving a sum
# apart, relaunch a partial-sums kernel to one value, catch every planted
# fault with a clear detail, and report timings with the CPU baseline (or leave it to a
# --cpu-baseline-only run, which opens no device).
set -u
. "$(dirname "$0")/lib.sh"

mkdir -p fake
cc -shared -fPIC -O1 -o fake/libcuda.so.1 "$E2E_SRC/tests/fakecuda/fakecuda.c"
check "the fake libcuda builds" $?
drv=$CUDALAB_LIBEXECDIR_TEST/cudalab-driver
kernels=$CUDALAB_LIBEXECDIR_TEST/lab-kernels.ptx

# module FILE KERNEL MODE [KEY=VALUE...]: a fake module holding the mangled KERNEL
module() {
    local f=$1 k=$2 mode=$3
    shift 3
    echo "_Z${#k}${k}PKfPfj mode=$mode $*" >"$f"
}

# drive STUDENT BASELINE UNROLL SIZES [TIMING-SIZES]: run the driver; the report in $OUT
drive() {
    local base=(--baseline "$2")
    [ "$2" = cpu ] || base+=(--baseline-kernel base --baseline-entry _Z4basePKfPfj)
    run env LD_LIBRARY_PATH="$T/fake" bash -c '"$@" 3>report.json' _ "$drv" reduce-float \
        --backend cuda --report-fd 3 --lab-kernels "$kernels" --student "$1" "${base[@]}" \
        --reference ref.mod --kernel k --entry _Z1kPKfPfj --sizes "$4" ${5:+--timing-sizes "$5"} --block 1024 --unroll "$3" --seed 11 \
        --min-samples 20 --time-cap 2
    [ "$RC" -eq 0 ] && [ -s report.json ]
    check "driver run ($1 against $2): exit 0 and a report" $?
    OUT=$(<report.json)
}

sizes=1,2,1000,4097,1048579,16777216

# --- the atomic steps' way: dev_sum, against the CPU ---
module ref.mod k devsum unroll=1 cost=4000 sum_bytes=4
module good.mod k devsum unroll=1 cost=2000 sum_bytes=4
drive good.mod cpu 1 $sizes 1048579
expect_json "dev_sum kernel: status ok, every case correct, mode dev_sum, one level" '
    j["status"] == "ok" and j["family"] == "reduce-float" and len(j["cases"]) == 18 and
    all(c["correct"] and c["mode"] == "dev_sum" and c["levels"] == 1 for c in j["cases"])'
expect_json "dev_sum kernel: the got is the exact double sum (inputs are multiples of 2^-11)" '
    all(c["got"] == c["expected"] for c in j["cases"])'
expect_json "tolerance = 8 * 2^-24 * sigma * n, sigma about 0.577" '
    all(abs(c["tolerance"] / (8 * 2**-24 * c["size"]) - 0.577) < 0.05 for c in j["cases"] if c["size"] > 4000)'
expect_json "timings at 1048579: student and reference on the fake clock, the CPU baseline" '
    [t["size"] for t in j["timings"]] == [1048579] and
    {k["role"]: k.get("where", "gpu") for k in j["timings"][0]["kernels"]} ==
        {"student": "gpu", "reference": "gpu", "baseline": "cpu"} and
    abs([k for k in j["timings"][0]["kernels"] if k["role"] == "student"][0]["median_ns"] - 2000) < 50 and
    abs([k for k in j["timings"][0]["kernels"] if k["role"] == "reference"][0]["median_ns"] - 4000) < 50 and
    j["timings"][0]["bytes"] == 4 * 1048579'

# --- the two-level way: partial sums, relaunched ---
module ref.mod k partials unroll=2 cost=1000
module base.mod base devsum unroll=2 cost=3000 sum_bytes=4
drive ref.mod base.mod 2 $sizes 16777216
expect_json "partials kernel: every case correct, mode partials" '
    j["status"] == "ok" and all(c["correct"] and c["mode"] == ("dev_sum" if c["role"] == "baseline" else "partials")
                                for c in j["cases"])'
expect_json "partials kernel: 1, 1, 1, 2, 2, 3 levels (2048 per block)" '
    [c["levels"] for c in j["cases"] if c["role"] == "student" and "round" not in c] == [1, 1, 1, 2, 2, 3]'
expect_json "every size checked twice for the student: new inputs in the same buffers (round 2)" '
    [c["size"] for c in j["cases"] if c["role"] == "student" and c.get("round") == 2] ==
        [1, 2, 1000, 4097, 1048579, 16777216]'
expect_json "every timed kernel had its output checked (the warm-up, a sample of the rest, the last)" '
    all(k["verified"] >= 2 and not k["wrong"] for k in j["timings"][0]["kernels"] if k.get("where") != "cpu")'
expect_json "partials kernel timed as all its launches: 3 x 1000 ns against the baseline 3000 ns" '
    abs([k for k in j["timings"][0]["kernels"] if k["role"] == "student"][0]["median_ns"] - 3000) < 50 and
    abs([k for k in j["timings"][0]["kernels"] if k["role"] == "baseline"][0]["median_ns"] - 3000) < 50'

# --- replays: right once, wrong on new inputs in the same buffers or when timed ---
module ref.mod k devsum unroll=1 sum_bytes=4
module memo.mod k devsum unroll=1 cost=2000 sum_bytes=4 memo=1
drive memo.mod cpu 1 1000,4097 4097
expect_json "a sum replayed from a cache keyed on the input pointer: right in round 1, wrong in round 2" '
    [(c["size"], c["correct"], c.get("round", 1)) for c in j["cases"] if c["role"] == "student"] ==
        [(1000, True, 1), (1000, False, 2), (4097, True, 1)] and j["timings"] == []'
module lazy.mod k devsum unroll=1 cost=2000 sum_bytes=4 after=5
drive lazy.mod cpu 1 1000,4097 4097
expect_json "a kernel right when checked (4 runs and the warm-up) and idle afterwards: its timed runs are wrong" '
    all(c["correct"] for c in j["cases"]) and
    [(k["role"], k["wrong"]) for k in j["timings"][0]["kernels"] if k.get("where") != "cpu"] ==
        [("student", True), ("reference", False)] and
    "the sum is 0" in [k for k in j["timings"][0]["kernels"] if k["role"] == "student"][0]["wrong_detail"]'

# --- planted faults: each wrong, none timed, each with its own detail ---
module ref.mod k devsum unroll=1 sum_bytes=4
wrong() { # NAME MODULE-ARGS DETAIL-PYTHON-EXPR
    module bad.mod k $2
    drive bad.mod cpu 1 1,1000,4097 4097
    expect_json "$1" '
        j["status"] == "ok" and j["timings"] == [] and
        all(c["correct"] for c in j["cases"] if c["role"] != "student") and
        not all(c["correct"] for c in j["cases"] if c["role"] == "student") and
        any('"$3"' for c in j["cases"] if not c["correct"])'
}
wrong "lost updates: the sum is off" "racy sum_bytes=4" \
    'c["detail"].startswith("the sum is ") and "expected" in c["detail"]'
wrong "elements past n added: NaN named" "nan-tail sum_bytes=4" \
    'c["got"] is None and "NaN, the lab'"'"'s poison past n" in c["detail"]'
wrong "neither dev_sum nor partials: says both are missing" "none" \
    '"no `__device__ float dev_sum` and wrote no pPartial[] either" in c["detail"]'
module bad.mod k missing unroll=1
drive bad.mod cpu 1 1000,4097
expect_json "a partial never written: named, with the count" '
    any(c["detail"] == "pPartial[4] was never written (4 of the 5 blocks wrote theirs)" for c in j["cases"])'
module bad.mod k past unroll=1
drive bad.mod cpu 1 4097
expect_json "a write past the grid: named" '
    any(c["detail"] == "wrote pPartial[5], past the 5 blocks" for c in j["cases"])'
module bad.mod k devsum unroll=1 sum_bytes=8
drive bad.mod cpu 1 1000
expect_json "a double dev_sum: an error that says so" '
    j["status"] == "error" and "must be one float" in j["reason"]'

# --- the CPU baseline in a run of its own (issue 22) ---
module ref.mod k devsum unroll=1 cost=4000 sum_bytes=4
module good.mod k devsum unroll=1 cost=2000 sum_bytes=4
run env LD_LIBRARY_PATH="$T/fake" bash -c '"$@" 3>report.json' _ "$drv" reduce-float \
    --backend cuda --report-fd 3 --lab-kernels "$kernels" --student good.mod --baseline cpu \
    --reference ref.mod --kernel k --entry _Z1kPKfPfj --sizes 1000,1048579 --timing-sizes 1048579 \
    --block 1024 --unroll 1 --seed 11 --min-samples 20 --time-cap 2 --no-cpu-baseline
OUT=$(<report.json)
expect_json "--no-cpu-baseline: the GPU's roles timed, the CPU's row left to a run of its own" '
    j["status"] == "ok" and [k["role"] for k in j["timings"][0]["kernels"]] == ["student", "reference"]'
# no libcuda on the library path: a run that opened a device would report no_gpu
mkdir -p nowhere
run env LD_LIBRARY_PATH="$T/nowhere" bash -c '"$@" 3>report.json' _ "$drv" reduce-float \
    --cpu-baseline-only --report-fd 3 --timing-sizes 1000,1048579 --seed 11
OUT=$(<report.json)
expect_status "--cpu-baseline-only: a report" 0
expect_json "--cpu-baseline-only: the serial sum timed at each size, no device opened, no case" '
    j["status"] == "ok" and j["backend"] == "cpu" and "device" not in j and "copy_gbps" not in j and
    j["cases"] == [] and
    [(t["size"], [(k["role"], k["where"]) for k in t["kernels"]]) for t in j["timings"]] ==
        [(1000, [("baseline", "cpu")]), (1048579, [("baseline", "cpu")])] and
    all(t["kernels"][0]["median_ns"] > 0 and 5 <= t["kernels"][0]["samples"] <= 30 and
        t["bytes"] == 4 * t["size"] for t in j["timings"])'
run env LD_LIBRARY_PATH="$T/nowhere" bash -c '"$@" 3>report.json' _ "$drv" reduce-float \
    --cpu-baseline-only --report-fd 3 --seed 11
expect_status "--cpu-baseline-only without --timing-sizes: a usage error" 2
expect_err "--cpu-baseline-only without --timing-sizes: says so" \
    "--cpu-baseline-only needs --timing-sizes"

e2e_finish
