#!/bin/bash
# A broken manifest: the lab reports it as file:line and the rest of the
# catalog still loads; the broken exercise is listed as broken with why, and asking for it
# says why (# 19 item 3: one bad key took the ten steps built on it out of grade, batch and
# show, "unknown exercise 'reduction/interleaved'").
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
expect_out_re "list shows the broken exercise as broken, with why" \
    "^  reduction/neighbored-less +broken: $ini:$line: unknown key 'blcok'\$"
expect_err "list names file:$line and the unknown key on stderr" \
    "exercises/reduction/neighbored-less/exercise.ini:$line: unknown key 'blcok'"
expect_eq "the problem is the first line of stderr" \
    "$(head -n 1 <<<"$ERR")" "$ini:$line: unknown key 'blcok'"
# the step built on it still loads, and says its baseline is broken
expect_eq "the other line is the step built on it, whose baseline is broken" \
    "$(tail -n +2 <<<"$ERR" | grep -c "exercise.ini:[0-9]*: 'baseline': 'reduction/neighbored-less' is broken")" 1
expect_out_re "the step built on it is listed" '^  reduction/interleaved +'
expect_out_re "so are the steps after it" '^  reduction/single-pass +'

run cudalab list --json
expect_status "list --json with a broken manifest" 0
expect_json "list --json leaves out only the broken reduction/neighbored-less" \
    '"reduction/neighbored" in [e["id"] for e in j["exercises"]] and "reduction/neighbored-less" not in [e["id"] for e in j["exercises"]]'
expect_json "list --json gives it as broken, with why" \
    'j["broken"] == [{"id": "reduction/neighbored-less", "chapter": "reduction", "reason": "'"$ini:$line: unknown key 'blcok'"'"}]'
expect_json "list --json gives the problem first" \
    'j["problems"][0] == "'"$ini:$line: unknown key 'blcok'"'"'

. "$E2E_SRC/tests/e2e/tmux.sh"
tmux_start "$CUDALAB_TEST_BIN"
tmux_keys / "reduction/neighbored-less" Enter
wait_screen "menu: the broken exercise is on the home screen, as broken" "broken (below)"
screen | grep -Eq '^  reduction/neighbored-less +broken \(below\)$'
check "menu: its line says broken" $?
tmux_keys q
tmux_end

run cudalab show reduction/neighbored
expect_status "show the other exercise" 0
run cudalab grade reduction/neighbored-less x.cu
expect_status "grade the broken exercise" 2
expect_err "grade the broken exercise: says why" \
    "exercise 'reduction/neighbored-less' is broken: $ini:$line: unknown key 'blcok'"
run cudalab show reduction/neighbored-less
expect_status "show the broken exercise" 2
expect_err "show the broken exercise: says why" "exercise 'reduction/neighbored-less' is broken: $ini:"
cp "$data/solutions/reduction/interleaved.cu" mine.cu
run cudalab grade reduction/interleaved mine.cu
expect_status "grade a step whose baseline is broken: a lab error" 2
expect_err "grade a step whose baseline is broken: names the baseline and why" \
    "baseline 'reduction/neighbored-less' is broken: $ini:$line: unknown key 'blcok'"
run cudalab batch reduction/neighbored-less mine.cu --out gb --no-sandbox
expect_status "batch of the broken exercise" 2
expect_err "batch of the broken exercise: says why" "exercise 'reduction/neighbored-less' is broken: $ini:"

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
expect_err "the exercise built on it: file:$base_line names its broken baseline" \
    "exercises/reduction/neighbored-less/exercise.ini:$base_line: 'baseline': 'reduction/neighbored' is broken"
expect_out_re "the broken baseline is listed as broken" '^  reduction/neighbored +broken: '
expect_out_re "the exercise built on it is listed" '^  reduction/neighbored-less +Neighbored'
expect_out "the chapter still is" "Parallel reduction  (reduction)"

# --- a baseline that names no exercise: the step is broken itself, and says so ---
data=$T/data-nobase
copy_datadir "$data"
ini=$data/exercises/reduction/neighbored-less/exercise.ini
sed -i 's|^baseline *=.*|baseline = reduction/no-such-step|' "$ini"
export CUDALAB_DATADIR=$data
run cudalab list
expect_out_re "a step whose baseline is no exercise: broken, with why" \
    "^  reduction/neighbored-less +broken: $ini:[0-9]+: 'baseline': no exercise 'reduction/no-such-step'\$"
expect_out_re "the step after it loads" '^  reduction/interleaved +'

# --- keys that named what is not there: a family outside the registry, files outside the lab ---
data=$T/data-keys
copy_datadir "$data"
ini=$data/exercises/reduction/unrolling4/exercise.ini
sed -i 's|^family *=.*|family = reduce-bogus|' "$ini"
fam_line=$(grep -n '^family' "$ini" | cut -d: -f1)
ini2=$data/exercises/reduction/unrolling8/exercise.ini
sed -i 's|^solution *=.*|solution = ../../../../etc/passwd|' "$ini2"
sol_line=$(grep -n '^solution' "$ini2" | cut -d: -f1)
ln -s /etc/passwd "$data/solutions/reduction/linked.cu"
ini3=$data/exercises/reduction/unroll-warps8/exercise.ini
sed -i 's|^solution *=.*|solution = solutions/reduction/linked.cu|' "$ini3"
export CUDALAB_DATADIR=$data
run cudalab list
expect_err "an unknown family: file:line names it and the registry's" \
    "$ini:$fam_line: 'family': unknown family 'reduce-bogus' (the families: reduce-int,"
expect_err "a solution path out of the data folder: file:line" \
    "$ini2:$sol_line: 'solution': '../../../../etc/passwd' is outside the lab's data folder"
expect_err "a solution linked out of the data folder: refused too" \
    "'solution': 'solutions/reduction/linked.cu' is outside the lab's data folder"
expect_out_re "the unknown family's exercise is broken" '^  reduction/unrolling4 +broken: '
run cudalab show reduction/unrolling8
expect_status "show of the exercise with /etc/passwd as solution: refused" 2

e2e_finish
