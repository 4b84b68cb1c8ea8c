#!/bin/bash
# cudalab calibrate: refused without a GPU; on the pretend H100 (recorded
# reports) it stores this GPU's thresholds in the store, keyed by device name
# and clocks, and gradings on that GPU use them.
set -u
. "$(dirname "$0")/lib.sh"

less=reduction/neighbored-less
sol=$CUDALAB_DATADIR_TEST/solutions/reduction/neighbored-less.cu

run cudalab calibrate $less
expect_status "calibrate without a GPU: refused" 2
expect_err "calibrate without a GPU: says why" "calibrate needs a GPU"

. "$(dirname "$0")/fake-gpu.sh"
fake_driver "cat '$reports/less-ref.json' >&3"
run cudalab calibrate $less
expect_status "calibrate on the recorded H100: ok" 0
expect_out "calibrate: names the GPU" "calibrating on NVIDIA H100 80GB HBM3"
expect_out_re "calibrate: the reference's 1.82x, the manifest's and this GPU's 1.10x" \
    '^reduction/neighbored-less +1\.82x +1\.10x +1\.10x$'
expect_eq "calibrate: one row in the store, keyed by name and clocks" \
    "$(db_rows "SELECT device, sm_clock_khz, mem_clock_khz, exercise, round(reference_speedup, 2), min_speedup FROM calibration")" \
    "NVIDIA H100 80GB HBM3|1980000|2619000|reduction/neighbored-less|1.82|1.1"
run cudalab calibrate reduction/none
expect_status "calibrate unknown exercise: refused" 2
run cudalab calibrate --bogus
expect_status "calibrate bad option: refused" 2

db_exec() {
    python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2]); c.commit()' \
        "$STORE" "$1"
}

# a stored threshold is what the grading applies on that GPU (and only there)
cp "$sol" less.cu
db_exec "UPDATE calibration SET min_speedup = 1.9"
run cudalab grade $less less.cu --no-record
expect_out_re "graded with this GPU's stored threshold: SLOW" '^SLOW  '
expect_out "the message names the calibrated threshold" "(needs 1.90x)"
expect_out "the message says the threshold is this GPU's" "(threshold calibrated on this GPU)"
db_exec "UPDATE calibration SET sm_clock_khz = 1410000"
run cudalab grade $less less.cu --no-record
expect_out_re "another clock: the manifest's threshold, PASS" '^PASS  '
expect_out_lacks "another clock: no calibrated threshold named" "calibrated on this GPU"

e2e_finish
