#!/bin/bash
# The whole report -> verdict -> table -> store path without a GPU: fake
# drivers replay the reports recorded on an H100 (tests/fixtures/reports),
# then fake drivers misbehave (hang, ignore SIGTERM, fork, crash, flood,
# babble, say nothing) and the lab must still give the right verdict and
# leave no process behind.  The student's files are really compiled.
set -u
. "$(dirname "$0")/lib.sh"

h100="NVIDIA H100 80GB HBM3"

# The fake libexec dir (fake-gpu.sh): its name carries the marker, so every
# fake driver's command line does.
. "$(dirname "$0")/fake-gpu.sh"

# The replaying driver: keeps its arguments, sends $FAKE_REPORT on fd 3.  The simulator's run
# beside a GPU grading (--backend=sim) sends $FAKE_SIM_REPORT instead, when it is set; the CPU
# baseline's run (--cpu-baseline-only) is the real driver's.
replay_driver() {
    fake_driver "case \" \$* \" in *' --backend=sim '*) cat \"\${FAKE_SIM_REPORT:-\$FAKE_REPORT}\" >&3; exit 0 ;; esac
case \" \$* \" in *' --cpu-baseline-only '*) exec \"\$(dirname \"\$0\")/cudalab-driver.real\" reduce-int \"\$@\" ;; esac
printf '%s\\n' \"\$@\" >'$T/driver-args'
cat \"\$FAKE_REPORT\" >&3"
}

# grade_with REPORT ARGS...: grade with the replaying driver sending REPORT.
grade_with() {
    local report=$1
    shift
    FAKE_REPORT=$reports/$report run cudalab grade "$@"
}

expect_arg() { # NAME ARG: the driver got ARG (one whole argument)
    grep -Fqx -- "$2" "$T/driver-args"
    check "$1" $?
}

less=reduction/neighbored-less
nb=reduction/neighbored
cp "$CUDALAB_DATADIR_TEST/solutions/reduction/neighbored-less.cu" less.cu
cp "$CUDALAB_DATADIR_TEST/solutions/reduction/neighbored.cu" nb-ref.cu
cp "$CUDALAB_DATADIR_TEST/exercises/reduction/neighbored/starter.cu" nb-starter.cu
replay_driver

# --- the probe ---
run cudalab device
expect_status "device with the recorded probe" 0
expect_out "device names the H100, its arch and peak" \
    "GPU: $h100 (compute capability 9.0, builds for sm_90), memory peak 3352 GB/s"
run cudalab device --json
expect_json "device --json: present, H100, sm_90" \
    'j["present"] is True and j["name"] == "'"$h100"'" and j["arch"] == "sm_90" and j["cc"] == "9.0"'

# --- the simulator's checks beside a GPU grading (sim-barrier.json: a real simulator run of
# examples/wrong/barrier-in-branch.cu) ---
FAKE_SIM_REPORT=$reports/sim-barrier.json grade_with less-ref.json $less less.cu --seed 42 --json \
    --no-record
expect_json "a GPU run that sums right, a simulator that finds a divergent barrier: WRONG, by luck" \
    'j["verdict"] == "WRONG" and j["message"].startswith("right on this GPU by luck") and
     "barrier in divergent code" in j["message"] and j["sim_check"]["ran"]'
FAKE_SIM_REPORT=$reports/sim-barrier.json grade_with less-ref.json $less less.cu --seed 42 --json \
    --no-sim-check --no-record
expect_json "--no-sim-check: the GPU's verdict alone, and the JSON says the checks were off" \
    'j["verdict"] == "PASS" and j["sim_check"] == {"ran": False, "skipped": "turned off for this grading"}'
FAKE_SIM_REPORT=/dev/null grade_with less-ref.json $less less.cu --seed 42 --no-record
expect_status "a simulator run without a report: the GPU's verdict stands" 0
expect_out "and the grading says the checks were skipped, and why" \
    "the simulator's checks were skipped: the simulator "

# --- less-ref.json: the reference solution passes ---
grade_with less-ref.json $less less.cu --seed 42
expect_status "less-ref: PASS" 0
expect_out_re "less-ref: verdict PASS" '^PASS  '
expect_out "less-ref: 10/10 points" "10/10 points"
expect_out "less-ref: names the GPU, seed and block" "GPU $h100 (sm_90), seed 42, block 512"
expect_out_re "less-ref: every size ok" '^  16777216 +ok'
expect_out_re "less-ref: table header has GB/s, % copy, speedup" \
    '^  kernel +median +CI95 +samples +GB/s +% peak +% copy +speedup$'
expect_out_re "less-ref: table row student, 1.82x" '^  student +[0-9.]+ us .* 1\.82x$'
expect_out_re "less-ref: table row baseline, 1.00x" '^  baseline +[0-9.]+ us .* 1\.00x$'
expect_out_re "less-ref: table row reference, 1.82x" '^  reference +[0-9.]+ us .* 1\.82x$'
expect_out "less-ref: copy bandwidth and peak" "GB/s   peak 3352 GB/s"
expect_out "less-ref: message gives speedup and fraction" \
    "1.82x over reduceNeighbored (needs 1.10x); 100% of the reference's 1.82x (needs 75%)"
expect_out_lacks "less-ref: no 'next:' advice on a pass" "next:"

# what the lab asked the driver
expect_arg "driver args: --report-fd=3" "--report-fd=3"
expect_arg "driver args: --kernel" "--kernel=reduceNeighboredLess"
expect_arg "driver args: --baseline-kernel" "--baseline-kernel=reduceNeighbored"
expect_arg "driver args: --sizes from the manifest" "--sizes=1,1000,1048579,16777216"
expect_arg "driver args: --timing-sizes" "--timing-sizes=16777216"
expect_arg "driver args: --block" "--block=512"
expect_arg "driver args: --unroll" "--unroll=1"
expect_arg "driver args: --seed" "--seed=42"
expect_arg "driver args: --lab-kernels in the libexec dir" "--lab-kernels=$fx/lab-kernels.ptx"
for role in student baseline reference; do
    mod=$(sed -n "s/^--$role=//p" "$T/driver-args")
    [[ "$mod" == "$CACHE/"*.cubin && -s "$mod" ]]
    check "driver args: --$role is a cubin in the compile cache" $?
done

grade_with less-ref.json $less less.cu --seed 42 --json
expect_status "less-ref --json" 0
expect_json "less-ref --json: valid JSON"
expect_json "less-ref --json: PASS, 10 points, speedup 1.82, fraction 1.00" \
    'j["verdict"] == "PASS" and j["points"] == 10 and abs(j["speedup"] - 1.82) < 0.01
     and abs(j["fraction_of_reference"] - 1.0) < 0.01 and j["median_ns"] > 0'
expect_json "less-ref --json: the device and the driver's report" \
    'j["device"] == "'"$h100"'" and j["report"]["status"] == "ok" and len(j["report"]["cases"]) == 12'

# --- the launch shapes: each role's own, the baseline's never borrowed from the student ---
cp "$CUDALAB_DATADIR_TEST/solutions/reduction/single-pass.cu" single.cu
grade_with less-ref.json reduction/single-pass single.cu --no-record
expect_arg "single-pass: the student adds up the total" "--output=total"
expect_arg "single-pass: 4 blocks per SM" "--grid-per-sm=4"
expect_arg "single-pass: the baseline leaves partial sums" "--baseline-output=partials"
expect_arg "single-pass: the baseline's grid covers n" "--baseline-grid-per-sm=0"
expect_arg "single-pass: the baseline unrolls 8" "--baseline-unroll=8"
expect_arg "single-pass: the baseline is the template instance" \
    "--baseline-entry=_Z20reduceCompleteUnrollILj512EEvPiS0_j"
expect_arg "single-pass: the student's entry, from the family registry" \
    "--entry=_Z16reduceSinglePassPiS_j"
cp "$CUDALAB_DATADIR_TEST/solutions/reduction/unrolling2.cu" unroll2.cu
grade_with less-ref.json reduction/unrolling2 unroll2.cu --no-record
expect_arg "unrolling2: the student unrolls 2" "--unroll=2"
expect_arg "unrolling2: the baseline (interleaved) unrolls 1" "--baseline-unroll=1"
expect_arg "unrolling2: the baseline leaves partial sums" "--baseline-output=partials"

# --- less-starter.json: correct, not faster ---
grade_with less-starter.json $less less.cu
expect_status "less-starter: SLOW" 1
expect_out_re "less-starter: verdict SLOW" '^SLOW  '
expect_out "less-starter: half points" "5/10 points"
expect_out "less-starter: says what it needs" "1.00x over reduceNeighbored (needs 1.10x)"
expect_out "less-starter: advice" "next: correct; now make it faster"

# --- wrong.json: no barrier ---
grade_with wrong.json $less less.cu
expect_status "wrong: WRONG" 1
expect_out_re "wrong: verdict WRONG" '^WRONG  '
expect_out "wrong: names n = 1000 and the block" "wrong at n = 1000: block 0 (elements 0..511): expected 66875, got 50594"
expect_out "wrong: and the other sizes" "(and at other sizes)"
expect_out_re "wrong: the case table marks n = 1 ok" '^  1 +ok'
expect_out_re "wrong: the case table marks n = 1000 wrong" '^  1000 +wrong +block 0 '
expect_out "wrong: 0/10 points" "0/10 points"

# --- oob.json: an illegal address ---
grade_with oob.json $less less.cu
expect_status "oob: RUNTIME_ERROR" 1
expect_out_re "oob: verdict RUNTIME_ERROR" '^RUNTIME_ERROR  '
expect_out "oob: names CUDA_ERROR_ILLEGAL_ADDRESS at n = 1" \
    "reduceNeighboredLess failed at n = 1: CUDA_ERROR_ILLEGAL_ADDRESS (700)"

# --- nb-starter.json: the notes' kernel, against the CPU baseline ---
grade_with nb-starter.json $nb nb-starter.cu
expect_status "nb-starter: WRONG" 1
expect_out_re "nb-starter: verdict WRONG" '^WRONG  '
expect_out "nb-starter: wrong at n = 1" "wrong at n = 1: block 0 (elements 0..0): expected 189, got 9437382"
expect_out_re "nb-starter: the CPU baseline is marked" '^  baseline .*1\.00x  \(CPU\)$'
expect_arg "nb-starter: driver args: --baseline=cpu" "--baseline=cpu"
! grep -q -- '--baseline-kernel' "$T/driver-args"
check "nb-starter: driver args: no --baseline-kernel" $?

# --- nb-ref.json: the reference solution of the first step ---
grade_with nb-ref.json $nb nb-ref.cu
expect_status "nb-ref: PASS" 0
expect_out_re "nb-ref: verdict PASS" '^PASS  '

# --- progress from the recorded runs ---
run cudalab list
expect_out_re "list: neighbored-less passed, best 1.82x" \
    '^  reduction/neighbored-less +.* passed, best 1\.82x \(100% of reference\)$'
expect_out_re "list: neighbored passed" '^  reduction/neighbored +.* passed, best '
expect_eq "store: the recorded attempts' verdicts, backend and device" \
    "$(db_rows 'SELECT exercise, verdict, points, backend, device FROM attempts ORDER BY id')" \
    "$less|PASS|10|cuda|$h100
$less|PASS|10|cuda|$h100
$less|SLOW|5|cuda|$h100
$less|WRONG|0|cuda|$h100
$less|RUNTIME_ERROR|0|cuda|$h100
$nb|WRONG|0|cuda|$h100
$nb|PASS|10|cuda|$h100"
expect_eq "store: an attempt keeps the driver's report as sent" \
    "$(db_rows 'SELECT cases_json FROM attempts ORDER BY id LIMIT 1')" "$(cat "$reports/less-ref.json")"
expect_eq "store: speedup of the pass" \
    "$(db_rows 'SELECT round(speedup, 2), round(fraction, 2) FROM attempts ORDER BY id LIMIT 1')" "1.82|1.0"

# --- drivers that misbehave -----------------------------------------------------
sleeper=$(marked_sleep)
short=$T/short
copy_datadir "$short"
sed -i 's/^run_timeout *=.*/run_timeout = 2/' "$short/exercises/reduction/neighbored-less/exercise.ini"
nrows() { db_rows 'SELECT count(*) FROM attempts'; }

fake_driver "\"$sleeper\" 1000"
CUDALAB_DATADIR=$short run cudalab grade $less less.cu
expect_status "hanging driver: TIMEOUT" 1
expect_out_re "hanging driver: verdict TIMEOUT" '^TIMEOUT  '
expect_out "hanging driver: names the timeout" "reduceNeighboredLess did not finish within 2 s"
expect_faster "hanging driver: stopped in well under 10 s" 6
[ "$MS" -ge 1900 ]
check "hanging driver: not before its 2 s" $?
expect_no_process "hanging driver: no process left" "$E2E_MARK"

fake_driver "trap '' TERM
\"$sleeper\" 1000 &
\"$sleeper\" 1000"
CUDALAB_DATADIR=$short run cudalab grade $less less.cu
expect_status "driver ignoring SIGTERM, with a grandchild: TIMEOUT" 1
expect_out_re "driver ignoring SIGTERM: verdict TIMEOUT" '^TIMEOUT  '
expect_faster "driver ignoring SIGTERM: killed after the grace" 7
expect_no_process "driver ignoring SIGTERM: neither it nor its grandchild is left" "$E2E_MARK"

fake_driver 'ulimit -c 0
kill -SEGV $$'
run cudalab grade $less less.cu
expect_status "driver killed by SIGSEGV: RUNTIME_ERROR" 1
expect_out_re "driver killed by SIGSEGV: verdict RUNTIME_ERROR" '^RUNTIME_ERROR  '
expect_out "driver killed by SIGSEGV: names the signal" "killed by signal 11 (Segmentation fault)"
expect_no_process "driver killed by SIGSEGV: no process left" "$E2E_MARK"

# a printf flood (a debugging printf in every thread, flushed to the driver's stdout; on the H200
# 2^24 threads ran into the 120 s TIMEOUT with the advice to look for an endless loop): stopped
# at 1 MiB of output and named, in seconds
fake_driver "head -c 100000000 /dev/zero
cat '$reports/less-ref.json' >&3"
run cudalab grade $less less.cu
expect_status "driver flooding stdout with 100 MB: RUNTIME_ERROR" 1
expect_out_re "driver flooding stdout: the verdict names the flood" \
    '^RUNTIME_ERROR  your kernel printed 1\.[0-9] MiB, and the lab stopped it long before its'
expect_out "driver flooding stdout: the advice is about printf, not an endless loop" \
    "print from one thread (if (blockIdx.x == 0 && threadIdx.x == 0))"
expect_faster "driver flooding stdout: stopped fast" 10
expect_no_process "driver flooding stdout: no process left" "$E2E_MARK"

fake_driver "head -c 500000 /dev/zero
cat '$reports/less-ref.json' >&3"
run cudalab grade $less less.cu
expect_status "driver printing 500 kB (a small case's printf): still graded, PASS" 0

fake_driver "head -c 100000000 /dev/zero >&2
cat '$reports/less-ref.json' >&3"
run cudalab grade $less less.cu
expect_status "driver flooding stderr with 100 MB: RUNTIME_ERROR" 1
expect_out "driver flooding stderr: named" "your kernel printed"
expect_faster "driver flooding stderr: fast" 10

before=$(nrows)
fake_driver "echo 'Segmentation fault? {\"version\": 1, oops' >&3"
run cudalab grade $less less.cu
expect_status "driver writing garbage on fd 3: the lab's error" 2
expect_err "driver writing garbage: a clear message" "cudalab: the driver's report is not JSON"
expect_out_empty "driver writing garbage: no verdict on stdout"
expect_eq "driver writing garbage: no attempt recorded" "$(nrows)" "$before"

fake_driver 'exit 0'
run cudalab grade $less less.cu
expect_status "driver writing nothing: RUNTIME_ERROR" 1
expect_out_re "driver writing nothing: verdict RUNTIME_ERROR" '^RUNTIME_ERROR  '
expect_out "driver writing nothing: 'without a report'" \
    "the run ended without a report: the driver exited with status 0"
expect_out "driver writing nothing: the advice says whose failure it may be, not an index past the end" \
    "the driver stopped before it could report"
expect_out_lacks "driver writing nothing: no index-past-the-end advice" "an index past the end"

fake_driver 'echo "reduce-int: --frob: unknown option" >&2
exit 2'
run cudalab grade $less less.cu
expect_status "driver refusing its arguments: the lab's error" 2
expect_err "driver refusing its arguments: says so, with its message" \
    "refused its arguments: reduce-int: --frob: unknown option"

fake_driver "cat '$reports/less-ref.json' >&3
\"$sleeper\" 1000 &
exit 0"
run cudalab grade $less less.cu
expect_status "driver leaving a grandchild on its pipes: PASS" 0
expect_faster "driver leaving a grandchild: the lab does not wait for it" 5
expect_no_process "driver leaving a grandchild: the grandchild is killed" "$E2E_MARK"

# A grandchild in a session of its own is out of the group's reach; the lab
# must still not wait for the pipes it holds, and the keeper, the subreaper of
# all the driver starts, kills it when the driver ends (# 34: it outlived the lab).
escapee_mark=cudalab-e2e-escapee-${T##*/}-$$
escapee=$(marked_sleep "$escapee_mark")
fake_driver "cat '$reports/less-ref.json' >&3
setsid sh -c ': >\"$T/escaped\"; exec \"$escapee\" 1000' &
while [ ! -e '$T/escaped' ]; do sleep 0.01; done
exit 0"
run cudalab grade $less less.cu
expect_status "driver leaving an escaped grandchild on its pipes: PASS" 0
expect_faster "driver leaving an escaped grandchild: the lab does not wait for it" 5
[ -e "$T/escaped" ]
check "driver leaving an escaped grandchild: it did start (so the check below means something)" $?
expect_no_process "driver leaving an escaped grandchild: killed all the same (the keeper is its subreaper)" \
    "$escapee_mark"

expect_eq "store: the misbehaving drivers' verdicts" \
    "$(db_rows "SELECT verdict FROM attempts WHERE id > 7 ORDER BY id" | tr '\n' ' ')" \
    "TIMEOUT TIMEOUT RUNTIME_ERROR RUNTIME_ERROR PASS RUNTIME_ERROR RUNTIME_ERROR PASS PASS "

e2e_finish
