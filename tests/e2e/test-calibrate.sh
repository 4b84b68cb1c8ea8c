#!/bin/bash
# The speed line follows the GPU at hand (docs/design/grading-policy.md), on a pretend GPU that
# replays the reports recorded on an H100 (tests/fixtures/reports); the student's files, the
# starter and the step before's reference are really compiled, and really compared.
#
#  - the H100's own report: the manifest's line holds ("manifest"); a manifest line above what
#    this GPU's reference reaches follows the GPU ("this-gpu"), and the message says so;
#  - a GPU where the step's lesson does not show: less-starter.json with the reference's row
#    given the starter's recorded time (the reference gains nothing over the baseline there, as
#    halfhalf-shared's reference did on the H200 of issue 31: 0.99x).  Matching the reference
#    passes, saying why; the untouched starter, the starter with other comments and names, and
#    the step before's kernel under this step's name do not: their code is what the step starts
#    from;
#  - `cudalab calibrate`: refused without a GPU; on the pretend H100 it shows each step's line
#    there and stores nothing.
set -u
. "$(dirname "$0")/lib.sh"

less=reduction/neighbored-less
sol=$CUDALAB_DATADIR_TEST/solutions/reduction/neighbored-less.cu
starter=$CUDALAB_DATADIR_TEST/exercises/reduction/neighbored-less/starter.cu
previous=$CUDALAB_DATADIR_TEST/exercises/reduction/neighbored-less/examples/cheat/previous-step.cu

run cudalab calibrate $less
expect_status "calibrate without a GPU: refused" 2
expect_err "calibrate without a GPU: says why" "calibrate needs a GPU"

. "$(dirname "$0")/fake-gpu.sh"

# --- the H100's report: the manifest's line --------------------------------------------
fake_driver "cat '$reports/less-ref.json' >&3"
run cudalab grade $less "$sol" --no-record --json
expect_json "H100: the reference passes at the manifest's line" \
    'j["verdict"] == "PASS" and j["speed_line"]["source"] == "manifest"
     and j["speed_line"]["min_speedup"] == 1.10 and j["speed_line"]["lesson_shows"]
     and abs(j["speed_line"]["reference_speedup"] - 1.8244) < 0.001
     and j["speed_line"]["noise"] == 0.01 and "model_band" not in j["speed_line"]'
copy_datadir "$T/high"
sed -i 's/^min_speedup *=.*/min_speedup = 2.5/' "$T/high/exercises/$less/exercise.ini"
CUDALAB_DATADIR=$T/high run cudalab grade $less "$sol" --no-record
expect_out_re "a line above this GPU's reference follows it: PASS, half-way to 1.82x" \
    '^PASS  1\.82x over reduceNeighbored \(needs 1\.41x\); 100% of the reference.s 1\.82x \(needs 75%\); the line follows the GPU: half-way from 1x to its reference.s 1\.82x, under the 2\.50x set on an H100'
CUDALAB_DATADIR=$T/high run cudalab grade $less "$sol" --no-record --json
expect_json "... and the JSON says where the line came from" \
    'j["speed_line"]["source"] == "this-gpu" and j["speed_line"]["manifest_min_speedup"] == 2.5
     and abs(j["speed_line"]["min_speedup"] - 1.4122) < 0.001'

# --- a GPU where the lesson does not show -------------------------------------------------
python3 - "$reports/less-starter.json" "$reports/flat.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for t in r["timings"]:
    k = {x["role"]: x for x in t["kernels"]}
    k["reference"].update({key: v for key, v in k["student"].items() if key != "role"})
json.dump(r, open(sys.argv[2], "w"))
PY
fake_driver "cat '$reports/flat.json' >&3"
run cudalab grade $less "$sol" --no-record
expect_status "lesson not shown: matching the reference passes" 0
expect_out_re "lesson not shown: the verdict says what, and why matching counts" \
    '^PASS  1\.00x over reduceNeighbored; 100% of the reference.s 1\.00x \(needs 98%\): the step.s lesson \(Neighbored pairs, less divergence\) does not show on this GPU, as the reference.s own gain stays under 1\.02x, within the noise, so matching the reference is what counts here'
run cudalab grade $less "$sol" --no-record --json
expect_json "lesson not shown: the JSON names the rule" \
    'j["speed_line"]["source"] == "match-reference" and not j["speed_line"]["lesson_shows"]
     and j["speed_line"]["min_fraction_of_reference"] == 0.98 and j["points"] == 10'
run cudalab grade $less "$starter" --no-record
expect_status "lesson not shown: the untouched starter does not pass" 1
expect_out_re "lesson not shown: the starter is SLOW, by its code" \
    '^SLOW  reduceNeighboredLess is the starter, unchanged: the step.s lesson \(Neighbored pairs, less divergence\) does not show on this GPU'
expect_out "lesson not shown: what to do" "make the change the task asks for"
# the starter with its comments gone and a variable renamed: the same code
sed -e '/^ \*/d' -e '/^\/\*/d' -e 's/\bfirst\b/start/g' "$starter" >renamed.cu
run cudalab grade $less renamed.cu --no-record
expect_out_re "lesson not shown: the starter with other comments and names is the starter" \
    '^SLOW  reduceNeighboredLess is the starter, unchanged'
run cudalab grade $less "$previous" --no-record
expect_out_re "lesson not shown: the step before's kernel under this name: the starter's code" \
    '^SLOW  reduceNeighboredLess is the starter, unchanged'
# with a starter of other code, the same file is the step before's kernel
copy_datadir "$T/other-starter"
cp "$sol" "$T/other-starter/exercises/$less/starter.cu"
CUDALAB_DATADIR=$T/other-starter run cudalab grade $less "$previous" --no-record
expect_out_re "lesson not shown: the step before's kernel under this name is SLOW" \
    '^SLOW  reduceNeighboredLess is the step before.s kernel, unchanged'

# --- calibrate: this GPU's lines, nothing stored --------------------------------------------
fake_driver "cat '$reports/less-ref.json' >&3"
run cudalab calibrate $less
expect_status "calibrate on the recorded H100: ok" 0
expect_out "calibrate: names the GPU" "the speed lines on NVIDIA H100 80GB HBM3"
expect_out_re "calibrate: the reference's 1.82x, the manifest's and this GPU's 1.10x, shown" \
    '^reduction/neighbored-less +1\.82x +1\.10x +1\.10x +shows$'
expect_cmd "calibrate: nothing stored" python3 -c '
import os, sqlite3, sys
sys.exit(os.path.exists(sys.argv[1]) and sqlite3.connect(sys.argv[1]).execute(
    "SELECT count(*) FROM sqlite_master WHERE name = ?", ("calibration",)).fetchone()[0])' "$STORE"
fake_driver "cat '$reports/flat.json' >&3"
run cudalab calibrate $less
expect_out_re "calibrate where the lesson does not show: says so" \
    '^reduction/neighbored-less +1\.00x +1\.10x +match 98% +does not show$'
run cudalab calibrate reduction/none
expect_status "calibrate unknown exercise: refused" 2
run cudalab calibrate --bogus
expect_status "calibrate bad option: refused" 2

e2e_finish
