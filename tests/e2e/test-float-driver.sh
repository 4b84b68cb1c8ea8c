#!/bin/bash
# The float reduction family without a GPU: the catalog holds its ladder in
# order, the real reduce-float driver refuses bad arguments and reports
# no_gpu, and the lab runs it with the right arguments and judges a float
# report (CPU baseline named as the serial sum, a wrong sum's detail).  The
# reports the fake driver sends are built here, by hand, to test the lab's
# side; they are not GPU recordings.
set -u
. "$(dirname "$0")/lib.sh"

steps="sum-atomic sum-shared-atomic sum-tournament sum-tournament-strided sum-reversed sum-add-first sum-last-warp
sum-shuffle sum-two-level"

# --- the catalog ---
run cudalab list --json
expect_status "list --json" 0
expect_json "list --json: the float steps, in order, after the int ones" '
    [e["id"] for e in j["exercises"] if e["id"].startswith("reduction/sum-")] ==
    ["reduction/" + s for s in "'"$(echo $steps)"'".split()]'
for s in $steps; do
    run cudalab show "reduction/$s"
    expect_status "show reduction/$s" 0
done
run cudalab show reduction/sum-two-level
expect_out "show sum-two-level: the task text" "Kernel decomposition"

# --- the real driver ---
drv=$CUDALAB_LIBEXECDIR_TEST/cudalab-driver
run "$drv" reduce-float --report-fd 3 --sizes 1
expect_status "driver: missing arguments exit 2" 2
expect_err "driver: says which are required" "--student, --baseline, --reference, --kernel"
run "$drv" reduce-float --report-fd 3 --block 2048
expect_status "driver: block 2048 refused" 2
run bash -c '"$0" reduce-float --backend cuda --report-fd 3 --lab-kernels x.ptx --student s.cubin \
    --baseline cpu --reference r.cubin --kernel sumAtomic --entry _Z9sumAtomicPKfPfj --sizes 1,1000 \
    --block 1024 3>report.json' "$drv"
expect_status "driver without a GPU: exit 0" 0
OUT=$(<report.json)
expect_json "driver without a GPU: a no_gpu report of the reduce-float family" \
    'j["version"] == 1 and j["family"] == "reduce-float" and j["status"] == "no_gpu"
     and j["reason"] != "" and j["block"] == 1024'

# --- the lab and a fake driver ---
fx=$T/libexec-$E2E_MARK
fake_programs "$fx"
cp "$FIXTURES/reports/probe.json" probe.json
printf '#!/bin/sh\ncat "%s" >&3\n' "$T/probe.json" >"$fx/device-probe"
# the GPU's run keeps its arguments (those read from stdin too, when the lab started it while
# nvcc compiled: --wait-args) and sends report.json; the CPU baseline's run is the real driver's
cat >"$fx/reduce-float" <<SH
#!/bin/bash
# $E2E_MARK
case " \$* " in *" --cpu-baseline-only "*) exec "\$(dirname "\$0")/cudalab-driver.real" reduce-float "\$@" ;; esac
case " \$* " in *" --wait-args "*) while IFS= read -r -d '' a && [ -n "\$a" ]; do set -- "\$@" "\$a"; done ;; esac
printf '%s\\n' "\$@" >"$T/driver-args"
cat "$T/report.json" >&3
SH
chmod +x "$fx/device-probe" "$fx/reduce-float"
export CUDALAB_LIBEXECDIR=$fx CUDALAB_ARCH=sm_90

# report.py CORRECT STUDENT_NS BASELINE_NS REFERENCE_NS [cpu]: a float report
report() {
    python3 - "$@" >report.json <<'PY'
import json, sys
ok = sys.argv[1] == "1"
ns = [float(x) for x in sys.argv[2:5]]
cpu = len(sys.argv) > 5
cases = []
for n in (1, 2, 1000, 4097, 1048579, 16777216):
    for role in ("student", "baseline", "reference"):
        if cpu and role == "baseline":
            continue
        good = ok or role != "student" or n < 1000
        cases.append({"size": n, "role": role, "grid": -(-n // 1024), "mode": "dev_sum",
                      "levels": 1, "correct": good, "expected": 12.5, "got": 12.5 if good else 3.0,
                      "tolerance": 0.001,
                      "detail": "" if good else "the sum is 3, expected 12.5 (tolerance 0.001)"})
kernels = []
for role, t in zip(("student", "baseline", "reference"), ns):
    k = {"role": role, "median_ns": t, "mad_ns": t / 100, "min_ns": t, "max_ns": t,
         "ci_rel": 0.001, "samples": 300, "gbps": 67108864 / t, "pct_peak": 1, "pct_copy": 1}
    if cpu and role == "baseline":
        k["where"] = "cpu"
    kernels.append(k)
print(json.dumps({"version": 1, "family": "reduce-float", "backend": "cuda", "status": "ok",
                  "cases": cases,
                  "timings": [{"size": 16777216, "bytes": 67108864, "copy_gbps": 2776,
                               "capped": False, "kernels": kernels}],
                  "seed": 7, "block": 1024, "unroll": 1,
                  "device": json.load(open("probe.json"))["device"], "copy_gbps": 2776}))
PY
}
expect_arg() { # NAME ARG: the driver got ARG (one whole argument)
    grep -Fqx -- "$2" "$T/driver-args"
    check "$1" $?
}

cp "$CUDALAB_DATADIR_TEST/solutions/reduction/sum-atomic.cu" atomic.cu
report 1 29449000 15000000 29449000 cpu
run cudalab grade reduction/sum-atomic atomic.cu --no-record
expect_out_re "sum-atomic, slower than the CPU: still PASS" '^PASS  '
expect_out "sum-atomic: the baseline is named the CPU serial sum" \
    "0.51x over the CPU serial sum (needs 0.10x)"
expect_arg "sum-atomic: --baseline=cpu" "--baseline=cpu"
expect_arg "sum-atomic: --block=1024" "--block=1024"
expect_arg "sum-atomic: --unroll=1" "--unroll=1"
expect_arg "sum-atomic: --sizes from the manifest" "--sizes=1,2,1000,4097,1048579,16777216"
grep -q -- '--baseline-kernel' driver-args
check "sum-atomic: no --baseline-kernel for a CPU baseline" $((!$?))

report 0 29449000 15000000 29449000 cpu
run cudalab grade reduction/sum-atomic atomic.cu --no-record
expect_out_re "a wrong float sum: WRONG" '^WRONG  '
expect_out "a wrong float sum: the driver's detail" \
    "wrong at n = 1000: the sum is 3, expected 12.5 (tolerance 0.001)"

cp "$CUDALAB_DATADIR_TEST/solutions/reduction/sum-add-first.cu" add-first.cu
report 1 65400 110300 65400
run cudalab grade reduction/sum-add-first add-first.cu --no-record
expect_out_re "sum-add-first at the H100's 1.69x: PASS" '^PASS  '
expect_out "sum-add-first: against sumReversed" "1.69x over sumReversed (needs 1.30x)"
expect_arg "sum-add-first: --unroll=2" "--unroll=2"
expect_arg "sum-add-first: --baseline-kernel" "--baseline-kernel=sumReversed"

cp "$CUDALAB_DATADIR_TEST/exercises/reduction/sum-add-first/starter.cu" starter.cu
report 1 108000 110300 65400
run cudalab grade reduction/sum-add-first starter.cu --no-record
expect_out_re "sum-add-first starter at 1.02x: SLOW" '^SLOW  '

cp "$CUDALAB_DATADIR_TEST/solutions/reduction/sum-shuffle.cu" shuffle.cu
report 1 52500 52000 49900
run cudalab grade reduction/sum-shuffle shuffle.cu --no-record
expect_out_re "sum-shuffle at 0.99x: PASS (graded on form, not slower)" '^PASS  '
expect_no_process "no fake driver left" "$E2E_MARK"

e2e_finish
