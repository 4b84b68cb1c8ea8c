#!/bin/bash
# The model's run on the simulator keeps the baseline's and the reference's counts
# (lab/grade/modelcache.h): the first grading counts all three kernels and keeps two; a grading
# after an edit runs the student's kernel alone and gives the same modelled times as a run of all
# three; a damaged kept file is counted again; a rebuilt driver is a new key.
set -u
. "$(dirname "$0")/lib.sh"

ex=reduction/neighbored-less
kept_dir=$XDG_CACHE_HOME/cudalab/model
cp "$CUDALAB_DATADIR_TEST/solutions/$ex.cu" k.cu
model() { python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["model"], sort_keys=True))' <<<"$OUT"; }
grade() { # TRACE-FILE SEED
    : >"$T/$1"
    CUDALAB_TRACE=$T/$1 run cudalab grade "$ex" k.cu --json --no-record --seed "$2"
}

grade t1 5
expect_json "first grading: PASS, modelled" 'j["verdict"] == "PASS" and j["backend"] == "sim" and "model" in j'
first=$(model)
! grep -q "counts kept" "$T/t1"
check "first grading: the model's run counts all three kernels" $?
expect_eq "first grading: one kept file of counts" "$(ls "$kept_dir" | wc -l)" 1
python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))
sys.exit(not (j["sim_metrics"] and {m["role"] for m in j["sim_metrics"]} == {"baseline", "reference"}
              and {c["role"] for c in j["cases"]} == {"baseline", "reference"}))' "$kept_dir"/*.json
check "the kept file holds the baseline's and reference's counts and cases, not the student's" $?

printf '\n// an edit\n' >>k.cu
grade t2 6
expect_json "after an edit: PASS, modelled" 'j["verdict"] == "PASS" and "model" in j'
grep -q "the model's run: the baseline's and reference's counts kept" "$T/t2"
check "after an edit: the kept counts are used (the model's run is the student's alone)" $?
expect_eq "after an edit: the same modelled times and counts as the run of all three" "$(model)" "$first"

echo '{"sim_metrics": [' >"$kept_dir"/*.json
printf '\n// another edit\n' >>k.cu
grade t3 7
! grep -q "counts kept" "$T/t3"
check "a damaged kept file: the three kernels are counted again" $?
expect_eq "a damaged kept file: the same modelled times" "$(model)" "$first"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$kept_dir"/*.json
check "a damaged kept file is written anew" $?

# another driver build (here: the same program, another time of change) is another key
mkdir -p libexec
cp -p "$CUDALAB_LIBEXECDIR_TEST"/* libexec/ 2>/dev/null
touch libexec/cudalab-driver
CUDALAB_LIBEXECDIR=$T/libexec grade t4 8
! grep -q "counts kept" "$T/t4"
check "a rebuilt driver: the counts are not taken from the old one's run" $?
expect_eq "a rebuilt driver: two kept files" "$(ls "$kept_dir" | wc -l)" 2

e2e_finish
