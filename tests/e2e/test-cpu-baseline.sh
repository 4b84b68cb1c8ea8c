#!/bin/bash
# e2e-timeout: 400
# Issue 22: a "baseline = cpu" exercise's CPU baseline is timed by a driver run of its own
# (cudalab-driver FAMILY --cpu-baseline-only), beside the GPU's driver and outside the GPU's
# lock; the GPU's driver (--no-cpu-baseline) leaves it out, and the lab puts its row back into
# the report before anything reads it.  On a pretend GPU (fake-gpu.sh): reduction/neighbored,
# whose GPU run replays the H100's nb-ref.json (recorded with the CPU timed in the driver; given
# --no-cpu-baseline, without that row, as the real driver writes it), and reduction/sum-atomic,
# whose GPU run is the real reduce-float driver on the stand-in libcuda (tests/fakecuda).  The
# CPU's runs are the real driver's.  Checked: the verdict and the baseline row; the CPU timed
# while another holds the GPU's lock; a CPU run that fails is the lab's failure, never a PASS
# and never recorded; the CPU's run stopped where the GPU timed nothing; none on the simulator.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fake-gpu.sh"

nb=reduction/neighbored
atomic=reduction/sum-atomic
# every run of the pretend drivers, its arguments on one line
export CPUB_ARGS=$T/args.log
# the GPU's run: $FAKE_REPORT (default nb-ref.json), without the CPU's row when told to leave
# it out.  The CPU's run: the real driver (FAKE_CPU=exit: it ends with no report;
# FAKE_CPU=other-size: it times another size than asked)
fake_driver 'echo "$*" >>"$CPUB_ARGS"
report=$(dirname "$0")/reports/${FAKE_REPORT:-nb-ref.json}
case " $* " in
*" --cpu-baseline-only "*)
    case ${FAKE_CPU:-} in
    exit) exit 1 ;;
    other-size) exec "$(dirname "$0")/cudalab-driver.real" reduce-int "$@" --timing-sizes=1000 ;;
    esac
    exec "$(dirname "$0")/cudalab-driver.real" reduce-int "$@" ;;
*" --no-cpu-baseline "*)
    python3 -c "
import json, sys
j = json.load(open(sys.argv[1]))
for t in j[\"timings\"]:
    t[\"kernels\"] = [k for k in t[\"kernels\"] if k.get(\"where\") != \"cpu\"]
sys.stdout.write(json.dumps(j))" "$report" >&3 ;;
*) cat "$report" >&3 ;;
esac'
cp "$CUDALAB_DATADIR_TEST/solutions/$nb.cu" nb.cu

# --- the row is back, as the driver wrote it ---
: >"$CPUB_ARGS"
CUDALAB_TRACE=$T/trace.pass run cudalab grade $nb nb.cu --json --no-record
expect_status "neighbored on the pretend GPU: graded" 0
expect_json "neighbored: PASS over the CPU" 'j["verdict"] == "PASS" and j["speedup"] > 1'
expect_json "the report's baseline row is the CPU's: where cpu, a positive median, its samples" '
    [k["role"] for k in j["report"]["timings"][0]["kernels"]] == ["student", "reference", "baseline"] and
    [k for k in j["report"]["timings"][0]["kernels"] if k["role"] == "baseline"][0]["where"] == "cpu" and
    [k for k in j["report"]["timings"][0]["kernels"] if k["role"] == "baseline"][0]["median_ns"] > 0 and
    5 <= [k for k in j["report"]["timings"][0]["kernels"] if k["role"] == "baseline"][0]["samples"] <= 30'
recorded=$(python3 -c 'import json, sys; print(sorted(json.load(open(sys.argv[1]))["timings"][0]["kernels"][-1]))' \
    "$FIXTURES/reports/nb-ref.json")
expect_json "the baseline row has the fields the driver wrote, its bandwidth against the GPU's bytes and peak" '
    sorted(j["report"]["timings"][0]["kernels"][-1]) == '"$recorded"' and
    abs(j["report"]["timings"][0]["kernels"][-1]["gbps"] * j["report"]["timings"][0]["kernels"][-1]["median_ns"]
        / j["report"]["timings"][0]["bytes"] - 1) < 1e-9 and
    abs(j["report"]["timings"][0]["kernels"][-1]["pct_peak"] / 100 * j["report"]["device"]["peak_gbps"]
        / j["report"]["timings"][0]["kernels"][-1]["gbps"] - 1) < 1e-9'
grep -- '--wait-go' "$CPUB_ARGS" | grep -q -- '--no-cpu-baseline'
check "the GPU's driver was told to leave the CPU alone" $?
grep -- '--cpu-baseline-only' "$CPUB_ARGS" | grep -- '--timing-sizes=16777216' | grep -qv -- '--student'
check "the CPU's run: --cpu-baseline-only at the timing size, no module" $?
grep -q 'driver: starting.*(the CPU baseline.s run started)' "$T/trace.pass" &&
    grep -q 'driver n=16777216: the CPU baseline timed' "$T/trace.pass" &&
    grep -q "the CPU baseline's run: done" "$T/trace.pass"
check "the trace marks the CPU's run: started, timed, done" $?

# --- outside the GPU's lock: timed while another holds it ---
lock=$(ls "$XDG_CACHE_HOME"/cudalab/locks/gpu-*.lock 2>/dev/null | head -1)
[ -n "$lock" ]
check "the GPU's lock file is there" $?
: >"$T/trace.lock"
# holds the lock until the CPU's run has timed (at most 60 s): a CPU run under the lock never would
flock "$lock" bash -c 'for _ in $(seq 600); do
    grep -q "the CPU baseline timed" "$1" && exit 0; sleep 0.1; done; exit 1' _ "$T/trace.lock" &
holder=$!
sleep 0.5
CUDALAB_TRACE=$T/trace.lock run cudalab grade $nb nb.cu --no-record
wait $holder
expect_eq "the CPU's run timed while another grading held the GPU's lock" "$?" 0
expect_status "graded after the lock came back" 0
expect_out "and passed" "PASS"
python3 - "$T/trace.lock" >order.txt 2>&1 <<'PY'
import sys
t = {}
for line in open(sys.argv[1]):
    secs, pid, prog, what = line.rstrip("\n").split(" ", 3)
    t.setdefault(what.split(" (")[0], float(secs))  # "...: go (the GPU's UUID or name)"
timed = t["n=16777216: the CPU baseline timed"]
assert timed < t["the GPU's lock taken: go"], "the CPU was timed under the GPU's lock"
print("ok")
PY
expect_eq "the trace: the CPU timed before the GPU's go" "$(cat order.txt)" "ok"

# --- the CPU's run fails: the lab's failure, no verdict, nothing recorded ---
for how in exit other-size; do
    FAKE_CPU=$how run cudalab grade $nb nb.cu
    expect_status "the CPU's run fails ($how): a lab error" 2
    expect_err "the CPU's run fails ($how): said as the lab's failure" \
        "the lab could not time the CPU baseline"
    expect_out_lacks "the CPU's run fails ($how): no PASS" "PASS"
done
expect_err "a report without the size asked for: says so" "has no time at n = 16777216"
expect_eq "the CPU's run failed: no attempt recorded" \
    "$(db_rows "SELECT count(*) FROM attempts WHERE exercise = '$nb'" 2>/dev/null || echo 0)" "0"

# --- a kernel that faulted: nothing timed on the GPU, the CPU's run stopped ---
: >"$T/trace.fault"
FAKE_REPORT=oob.json CUDALAB_TRACE=$T/trace.fault run cudalab grade $nb nb.cu --no-record
expect_status "a kernel that faulted: its verdict" 1
expect_out "a kernel that faulted: RUNTIME_ERROR" "RUNTIME_ERROR"
grep -q "the CPU baseline's run: stopped, nothing to add it to" "$T/trace.fault" &&
    ! grep -q "the CPU baseline's run: done" "$T/trace.fault"
check "a kernel that faulted: the CPU's run stopped, not waited for" $?

# --- the float family: the real reduce-float driver on the stand-in libcuda ---
mkdir -p "$fx/fake"
cc -shared -fPIC -O1 -o "$fx/fake/libcuda.so.1" "$E2E_SRC/tests/fakecuda/fakecuda.c"
check "the fake libcuda builds" $?
# 4 ms a launch on the fake clock: 17 GB/s, under the fake GPU's 64 GB/s peak
echo "_Z9sumAtomicPKfPfj mode=devsum unroll=1 cost=4000000 sum_bytes=4" >"$fx/fake/atomic.mod"
cat >"$fx/reduce-float" <<'SH'
#!/bin/bash
here=$(dirname "$0")
echo "$*" >>"$CPUB_ARGS"
case " $* " in
*" --cpu-baseline-only "*) exec "$here/cudalab-driver.real" reduce-float "$@" ;;
esac
args=()
for a in "$@"; do
    case $a in --student=* | --reference=*) a=${a%%=*}=$here/fake/atomic.mod ;; esac
    args+=("$a")
done
# started while nvcc compiled: the rest of the arguments from stdin, rewritten likewise
case " $* " in
*" --wait-args "*)
    args=()
    for a in "$@"; do [ "$a" = --wait-args ] || args+=("$a"); done
    while IFS= read -r -d '' a && [ -n "$a" ]; do
        case $a in --student=* | --reference=*) a=${a%%=*}=$here/fake/atomic.mod ;; esac
        args+=("$a")
    done
    echo "${args[*]}" >>"$CPUB_ARGS" ;;
esac
LD_LIBRARY_PATH=$here/fake exec "$here/cudalab-driver.real" reduce-float "${args[@]}" \
    --min-samples=20 --time-cap=1
SH
chmod +x "$fx/reduce-float"
cp "$CUDALAB_DATADIR_TEST/solutions/$atomic.cu" atomic.cu
: >"$CPUB_ARGS"
run cudalab grade $atomic atomic.cu --json --no-record --no-sim-check
expect_status "sum-atomic on the stand-in libcuda: graded" 0
expect_json "sum-atomic: PASS, its baseline the CPU's row" '
    j["verdict"] == "PASS" and
    [(k["role"], k.get("where")) for k in j["report"]["timings"][0]["kernels"]] ==
        [("student", None), ("reference", None), ("baseline", "cpu")] and
    j["report"]["timings"][0]["kernels"][-1]["median_ns"] > 0'
grep -- '--wait-go' "$CPUB_ARGS" | grep -q -- '--no-cpu-baseline' &&
    grep -q -- '--cpu-baseline-only' "$CPUB_ARGS"
check "sum-atomic: the CPU timed in its own run, not by the GPU's driver" $?

# --- the simulator times nothing: no CPU run ---
export CUDALAB_LIBEXECDIR=$CUDALAB_LIBEXECDIR_TEST
: >"$T/trace.sim"
CUDALAB_SIM_MAX_SIZE=4096 CUDALAB_TRACE=$T/trace.sim run cudalab grade $nb nb.cu --sim --no-record
expect_out "the simulator: graded" "n = "
grep -q 'driver: starting' "$T/trace.sim" && ! grep -q 'CPU baseline' "$T/trace.sim"
check "the simulator: no CPU run (the trace has the driver's start and no CPU run)" $?

e2e_finish
