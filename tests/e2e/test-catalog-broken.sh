#!/bin/bash
# A broken manifest: the lab reports it as file:line and the rest of the
# catalog still loads.
set -u
. "$(dirname "$0")/lib.sh"

# --- an unknown key appended to reduction/neighbored-less ---
data=$T/data-typo
copy_datadir "$data"
ini=$data/exercises/reduction/neighbored-less/exercise.ini
echo 'blcok = 3' >>"$ini"
line=$(wc -l <"$ini")
export CUDALAB_DATADIR=$data

run cudalab list
expect_status "list with a broken manifest" 0
expect_out_re "list still lists reduction/neighbored" '^  reduction/neighbored +.*not started$'
expect_out_lacks "list leaves the broken exercise out" "reduction/neighbored-less"
expect_err "list names file:$line and the unknown key on stderr" \
    "exercises/reduction/neighbored-less/exercise.ini:$line: unknown key 'blcok'"
expect_eq "the problem is the first line of stderr" \
    "$(head -n 1 <<<"$ERR")" "$ini:$line: unknown key 'blcok'"
# the steps built on it lose their baseline, each said once
expect_eq "every other line is a step whose baseline chain is broken" \
    "$(tail -n +2 <<<"$ERR" | grep -cv "exercise.ini:[0-9]*: 'baseline': no exercise 'reduction/")" 0

run cudalab list --json
expect_status "list --json with a broken manifest" 0
expect_json "list --json leaves out only the broken reduction/neighbored-less" \
    '"reduction/neighbored" in [e["id"] for e in j["exercises"]] and "reduction/neighbored-less" not in [e["id"] for e in j["exercises"]]'
expect_json "list --json gives the problem first" \
    'j["problems"][0] == "'"$ini:$line: unknown key 'blcok'"'"'

run cudalab show reduction/neighbored
expect_status "show the other exercise" 0
run cudalab grade reduction/neighbored-less x.cu
expect_status "grade the broken exercise" 2
expect_err "grade the broken exercise: unknown exercise" "unknown exercise 'reduction/neighbored-less'"

# --- the same typo in the middle of reduction/neighbored, the other's baseline ---
data=$T/data-baseline
copy_datadir "$data"
ini=$data/exercises/reduction/neighbored/exercise.ini
sed -i 's/^block = 512$/block = 512\nblcok = 3/' "$ini"
line=$(grep -n '^blcok' "$ini" | cut -d: -f1)
less_ini=$data/exercises/reduction/neighbored-less/exercise.ini
base_line=$(grep -n '^baseline' "$less_ini" | cut -d: -f1)
export CUDALAB_DATADIR=$data

run cudalab list
expect_status "list with the baseline's manifest broken" 0
expect_err "the baseline's manifest: file:$line: unknown key" \
    "exercises/reduction/neighbored/exercise.ini:$line: unknown key 'blcok'"
expect_err "the exercise built on it: file:$base_line names its missing baseline" \
    "exercises/reduction/neighbored-less/exercise.ini:$base_line: 'baseline': no exercise 'reduction/neighbored'"
expect_out_lacks "neither exercise is listed" "reduction/neighbored"
expect_out "the chapter still is" "Parallel reduction  (reduction)"

e2e_finish
