#!/bin/bash
# The GPU's lock covers a driver's work on the GPU, not its start and teardown: with a pretend
# GPU whose driver takes FAKE_INIT s to open the device before the lab's go and FAKE_TEARDOWN s
# to tear it down after its report, two gradings at once open and tear down side by side and
# never use the GPU at the same time; the run timeout counts from the go, not from the start;
# a grading cancelled while it waits for the lock leaves no driver behind; a driver that ends
# before its go is not waited for; after an edit the driver opens its device while nvcc compiles
# (--wait-args), and a compile error leaves no such driver behind.
set -u
. "$(dirname "$0")/lib.sh"

less=reduction/neighbored-less
. "$(dirname "$0")/fake-gpu.sh"
fake_driver "sleep \"\${FAKE_SLEEP:-0}\"
cat '$reports/less-ref.json' >&3"
cp "$CUDALAB_DATADIR_TEST/solutions/reduction/neighbored-less.cu" a.cu
cp a.cu b.cu
cudalab grade $less a.cu --no-record >/dev/null 2>&1 # the build cache: both files are the same code

# two_gradings: a.cu and b.cu graded at once; their output in a.out and b.out, statuses in ra, rb
two_gradings() {
    local pa pb
    CUDALAB_TRACE=$T/trace.a cudalab grade $less a.cu --no-record >a.out 2>&1 &
    pa=$!
    CUDALAB_TRACE=$T/trace.b cudalab grade $less b.cu --no-record >b.out 2>&1 &
    pb=$!
    wait $pa
    ra=$?
    wait $pb
    rb=$?
}

# --- the lock's window: the GPU work alone ---
export FAKE_LOG=$T/gpu.log FAKE_INIT=1 FAKE_SLEEP=2 FAKE_TEARDOWN=2
: >"$FAKE_LOG"
two_gradings
unset FAKE_LOG FAKE_INIT FAKE_SLEEP FAKE_TEARDOWN
expect_eq "two at once: both graded (exit 0)" "$ra $rb" "0 0"
grep -q '^PASS' a.out && grep -q '^PASS' b.out
check "two at once: both PASS" $?
python3 - "$T/gpu.log" >order.txt 2>&1 <<'PY'
import sys
runs = {}
for kind, pid, t in (l.split() for l in open(sys.argv[1])):
    if kind != "opened":  # a driver started while nvcc compiled: its device open, before "ready"
        runs.setdefault(pid, {})[kind] = float(t)
assert len(runs) == 2 and all(len(r) == 4 for r in runs.values()), runs
first, second = sorted(runs.values(), key=lambda r: r["start"])
assert first["end"] <= second["start"], "the two used the GPU at the same time"
print("overlapped-open" if second["ready"] < first["end"] else "opened-after")
print("overlapped-teardown" if second["start"] < first["gone"] else "started-after-teardown")
PY
check "two at once: never on the GPU at the same time" $?
expect_eq "two at once: the second opened its device while the first used the GPU" \
    "$(sed -n 1p order.txt)" "overlapped-open"
expect_eq "two at once: the lock came back at the first's report, before its teardown ended" \
    "$(sed -n 2p order.txt)" "overlapped-teardown"

# --- the run timeout counts from the go: waiting for the lock is not running ---
copy_datadir data
sed -i 's/^run_timeout *=.*/run_timeout = 2/' data/exercises/$less/exercise.ini
export CUDALAB_DATADIR=$T/data FAKE_SLEEP=1.5
two_gradings
unset FAKE_SLEEP
expect_eq "a 2 s timeout, 1.5 s runs, one waiting for the other: both graded (exit 0)" \
    "$ra $rb" "0 0"
grep -q '^TIMEOUT' a.out b.out
expect_eq "a 2 s timeout, 1.5 s runs: no TIMEOUT" "$?" 1
export CUDALAB_DATADIR=$CUDALAB_DATADIR_TEST

# --- cancelled while waiting for the lock ---
export FAKE_SLEEP=3
cudalab grade $less a.cu --no-record >a.out 2>&1 &
pa=$!
sleep 1
env --default-signal=INT "$CUDALAB_TEST_BIN" grade $less b.cu --no-record >b.out 2>&1 &
pb=$!
sleep 1
kill -INT $pb
wait $pb
expect_eq "SIGINT while waiting for the lock: the grading ends by it" "$?" 130
wait $pa
expect_eq "SIGINT while waiting for the lock: the other grading goes on (exit 0)" "$?" 0
unset FAKE_SLEEP
expect_no_process "SIGINT while waiting for the lock: no driver left behind" "$E2E_MARK"

# --- a driver that ends before its go (a module it cannot load) does not wait for the lock ---
FAKE_SLEEP=6 cudalab grade $less a.cu --no-record >a.out 2>&1 &
pa=$!
sleep 1 # a.cu's driver is on the GPU now, for 6 s
FAKE_EARLY='{"version":1,"family":"reduce-int","backend":"cuda","status":"error","cases":[],"timings":[],"reason":"cuModuleLoadData: CUDA_ERROR_INVALID_PTX (218)","error":{"role":"student","stage":"load","size":0,"code":218,"name":"CUDA_ERROR_INVALID_PTX","message":"cuModuleLoadData: CUDA_ERROR_INVALID_PTX (218)"}}' \
    CUDALAB_TRACE=$T/trace.early run cudalab grade $less b.cu --no-record
expect_faster "a driver that ended before its go: its grading does not wait for the GPU's lock" 3
expect_out "a driver that ended before its go: its report is the verdict's" "CUDA_ERROR_INVALID_PTX"
expect_cmd "a driver that ended before its go: the trace says so" \
    grep -q "the driver ended before its go" "$T/trace.early"
wait $pa
expect_eq "a driver that ended before its go: the grading on the GPU goes on (exit 0)" "$?" 0

# --- after an edit, the driver opens its device while nvcc compiles (--wait-args) ---
export FAKE_LOG=$T/edit.log FAKE_INIT=0.1
: >"$FAKE_LOG"
{ cat a.cu; echo "// an edit: $RANDOM$RANDOM"; } >edited.cu
CUDALAB_TRACE=$T/trace.edit run cudalab grade $less edited.cu --no-record
expect_out_re "an edit: graded on the pretend GPU" '^PASS  '
python3 - "$T/trace.edit" "$FAKE_LOG" >edit.txt 2>&1 <<'PY'
import sys
trace = [l.split(None, 2) for l in open(sys.argv[1])]
opened = [float(l.split()[2]) for l in open(sys.argv[2]) if l.startswith("opened ")]
started = [float(t) for t, _, step in trace if "driver: started before the build" in step]
nvcc_end = [float(t) for t, _, step in trace if step.startswith("cudalab nvcc") and "end" in step]
print("prestarted" if started and nvcc_end and started[0] < nvcc_end[0] else "not prestarted")
print("opened during nvcc" if opened and nvcc_end and opened[0] < nvcc_end[0] else "opened after")
PY
expect_eq "an edit: the driver started before nvcc ended" "$(sed -n 1p edit.txt)" prestarted
expect_eq "an edit: it opened its device while nvcc compiled" "$(sed -n 2p edit.txt)" \
    "opened during nvcc"
{ cat a.cu; echo "this is not C++ $RANDOM"; } >broken.cu
: >"$FAKE_LOG"
run cudalab grade $less broken.cu --no-record
expect_out_re "a compile error with the driver started: COMPILE_ERROR" '^COMPILE_ERROR  '
expect_cmd "a compile error: the driver started early had opened its device" grep -q '^opened ' "$FAKE_LOG"
expect_cmd "a compile error: it never got to the GPU" bash -c "! grep -q '^start ' '$FAKE_LOG'"
expect_no_process "a compile error: no driver left behind" "$E2E_MARK"
unset FAKE_LOG FAKE_INIT

# --- the real driver: --wait-go holds it before its first work on the device ---
nvcc_real=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
"$nvcc_real" -ptx -arch=sm_90 -o less.ptx a.cu
drv=("$CUDALAB_LIBEXECDIR_TEST/cudalab-driver" reduce-int --backend=sim --report-fd=3
    "--lab-kernels=$CUDALAB_LIBEXECDIR_TEST/lab-kernels.ptx" --student=less.ptx
    --reference=less.ptx --baseline=cpu --kernel=reduceNeighboredLess
    --entry=_Z20reduceNeighboredLessPiS_j --sizes=1000 --block=512 --wait-go)
printf g | "${drv[@]}" 3>go.json
expect_eq "the real driver, given its go: exit 0" "$?" 0
OUT=$(<go.json)
expect_json "the real driver, given its go: the kernel ran, right" \
    'j["status"] == "ok" and len(j["cases"]) == 2 and all(c["correct"] for c in j["cases"])'
"${drv[@]}" 3>nogo.json </dev/null
expect_eq "the real driver, its channel closed without a go: exit 0, with a report" "$?" 0
OUT=$(<nogo.json)
expect_json "the real driver without a go: nothing ran, and the report says why" \
    'j["status"] == "error" and j["cases"] == [] and "never let the driver use the GPU" in j["reason"]'

# --- the real driver: --wait-args reads the rest of its arguments once its device is open ---
late=("--lab-kernels=$CUDALAB_LIBEXECDIR_TEST/lab-kernels.ptx" --student=less.ptx --reference=less.ptx
    --baseline=cpu --kernel=reduceNeighboredLess --entry=_Z20reduceNeighboredLessPiS_j --sizes=1000
    --block=512 --seed=7)
early=("$CUDALAB_LIBEXECDIR_TEST/cudalab-driver" reduce-int --backend=sim --report-fd=3 --wait-args
    --wait-go)
{ printf '%s\0' "${late[@]}"; printf '\0g'; } | "${early[@]}" 3>late.json
expect_eq "the real driver, its arguments late: exit 0" "$?" 0
OUT=$(<late.json)
expect_json "the real driver, its arguments late: the kernel ran, right, with their seed" \
    'j["status"] == "ok" and len(j["cases"]) == 2 and all(c["correct"] for c in j["cases"]) and j["seed"] == 7'
printf '%s\0' "${late[@]}" | "${early[@]}" 3>nolate.json
expect_eq "the real driver, its argument list never ended: exit 0, with a report" "$?" 0
OUT=$(<nolate.json)
expect_json "the real driver, its argument list never ended: nothing ran, and the report says why" \
    'j["status"] == "error" and j["cases"] == [] and "never sent the driver its arguments" in j["reason"]'
{ printf '%s\0' --sizes=0; printf '\0'; } | "${early[@]}" 3>bad.json 2>bad.err
expect_eq "the real driver, a bad late argument: exit 2 (a usage error)" "$?" 2
expect_cmd "the real driver, a bad late argument: says which" grep -q -- '--sizes' bad.err

e2e_finish
