#!/bin/bash
# The CLI's commands without grading: help, version, usage errors, list,
# show, start, device (on this machine's real, absent GPU).
set -u
. "$(dirname "$0")/lib.sh"

commands="list show start grade inspect profile predict device doctor help"

# --- help and version ---
run cudalab --help
expect_status "--help" 0
for c in $commands; do
    expect_out_re "--help lists '$c'" "^  $c "
done
expect_out "--help gives the exit statuses" "0 pass, 1 any other verdict, 2 usage or lab error"

run cudalab help
expect_status "help" 0
for c in $commands; do
    expect_out_re "help lists '$c'" "^  $c "
done
run cudalab help grade
expect_status "help grade" 0
expect_out "help grade gives its usage" "usage: cudalab grade EXERCISE [FILE]"
# the verdicts in one column, the longest name included
expect_out_re "help grade: the verdicts aligned" '^  SIM_UNSUPPORTED 1  '
expect_out_re "help grade: the verdicts aligned (a short one)" '^  PASS            0  '
for c in $commands batch; do
    run cudalab "$c" --help
    expect_status "$c --help" 0
    expect_out "$c --help gives its usage" "usage: cudalab $c "
done
run cudalab grade -h
expect_out "grade -h gives its usage" "usage: cudalab grade EXERCISE [FILE]"
run cudalab help frobnicate
expect_status "help of an unknown command" 2
expect_err "help of an unknown command says so" "unknown command 'frobnicate'"
run cudalab help grade
for v in PASS WRONG SLOW COMPILE_ERROR RUNTIME_ERROR TIMEOUT CONSTRAINT NO_GPU; do
    expect_out_re "help grade explains the verdict $v, with its exit status" "^  $v +[01]  [a-z]"
done
expect_out "help grade: a verdict's advice comes from the verdict table" \
    "COMPILE_ERROR   1  fix the first error: file and line are shown"
expect_out "help grade: without a GPU the simulator grades correctness" \
    "Without a GPU the PTX simulator grades correctness"
expect_out "help grade: WRONG's next line depends on the finding" \
    "After WRONG and RUNTIME_ERROR, the next: line says what to do about what was"

# the command table's groups: students' commands, then instructors' and graders'
run cudalab --help
student_at=$(grep -n '^commands for students:$' <<<"$OUT" | cut -d: -f1)
teach_at=$(grep -n '^commands for instructors and graders:$' <<<"$OUT" | cut -d: -f1)
[ -n "$student_at" ] && [ -n "$teach_at" ] && [ "$student_at" -lt "$teach_at" ]
check "--help: the students' commands, then the instructors' and graders'" $?
for c in next grade hint help; do
    at=$(grep -n "^  $c " <<<"$OUT" | cut -d: -f1)
    [ -n "$at" ] && [ "$at" -gt "$student_at" ] && [ "$at" -lt "$teach_at" ]
    check "--help: $c is a student's command" $?
done
for c in new-exercise check-exercise batch gradebook calibrate; do
    at=$(grep -n "^  $c " <<<"$OUT" | cut -d: -f1)
    [ -n "$at" ] && [ "$at" -gt "$teach_at" ]
    check "--help: $c is an instructor's or grader's command" $?
done
if [ -f "$E2E_SRC/build/gen/cudalab.1" ]; then
    grep -c '^\.SS "Commands for' "$E2E_SRC/build/gen/cudalab.1" | grep -qx 2
    check "the man page has the two groups, once each" $?
fi

run cudalab --version
expect_status "--version" 0
expect_out_re "--version prints cudalab X.Y.Z" '^cudalab [0-9]+\.[0-9]+\.[0-9]+$'

# --- usage errors ---
run cudalab frobnicate
expect_status "unknown command" 2
expect_err "unknown command is named, and where the rest is" \
    "cudalab: unknown command 'frobnicate' (cudalab help lists the commands)"
expect_eq "unknown command: one line" "$(wc -l <<<"$ERR")" 1
expect_out_empty "unknown command prints nothing on stdout"
run cudalab gradee reduction/neighbored
expect_status "mistyped command" 2
expect_err "mistyped command: did you mean, by edit distance" \
    "cudalab: unknown command 'gradee'; did you mean 'grade'? (cudalab help lists the commands)"
run cudalab lsit
expect_err "mistyped command: a transposition" "did you mean 'list'?"
run cudalab --frobnicate
expect_status "unknown option" 2
expect_err "unknown option is named" "unknown option '--frobnicate'"
run cudalab --seed 3 grade reduction/neighbored
expect_status "--seed before the command" 2
expect_err "--seed before the command: it goes after the command that takes it" \
    "'--seed' is an option of a command and goes after it (grade): cudalab grade ... --seed"
run cudalab grade reduction/neighbored --seed
expect_err "--seed without a value: says it needs one" "cudalab grade: --seed needs a value (N)"
run cudalab list --frobnicate
expect_status "list with an unknown argument" 2
run cudalab grade
expect_status "grade without an exercise" 2
expect_err "grade without an exercise gives its usage" "usage: cudalab grade EXERCISE"
run cudalab grade reduction/neighbored --frobnicate
expect_status "grade with an unknown option" 2
expect_err "grade with an unknown option names it" "unknown option '--frobnicate'"
run cudalab grade reduction/neighbored --seed 0
expect_status "grade --seed 0" 2

# --- list ---
run cudalab
expect_status "no command" 0
expect_out "no command lists the exercises" "reduction/neighbored"
expect_out "no command says how to begin with the first exercise" \
    "Next:  cudalab start $(cudalab list --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["exercises"][0]["id"])')"

run cudalab list
expect_status "list" 0
expect_out_re "list shows reduction/neighbored, not started" \
    '^  reduction/neighbored +Neighbored pairs in global memory +not started$'
expect_out_re "list shows reduction/neighbored-less, not started" \
    '^  reduction/neighbored-less +Neighbored pairs, less divergence +not started$'
expect_out "list shows the chapter" "Parallel reduction  (reduction)"
[ -z "$ERR" ]
check "list reports no catalog problem" $?

run cudalab list --json
expect_status "list --json" 0
expect_json "list --json is valid JSON"
expect_json "list --json has every exercise directory, neighbored before neighbored-less" \
    '[e["id"] for e in j["exercises"] if e["id"] in ("reduction/neighbored", "reduction/neighbored-less")] == ["reduction/neighbored", "reduction/neighbored-less"] and len(j["exercises"]) == '"$(ls -d "$CUDALAB_DATADIR_TEST"/exercises/*/*/ | wc -l)"
expect_json "list --json: both not started, no attempts" \
    'all(e["status"] == "not started" and e["attempts"] == 0 for e in j["exercises"])'
expect_json "list --json: no problems" 'j["problems"] == []'

# --- show ---
run cudalab show reduction/neighbored
expect_status "show" 0
expect_out "show prints the task" "$(head -n 1 "$CUDALAB_DATADIR_TEST/exercises/reduction/neighbored/task.md" | sed 's/^# //')"
expect_out "show prints the task's text" "Your first GPU reduction"
expect_out "show names the kernel" "Kernel: reduceNeighbored "
expect_out "show names the file to edit" "File to edit: work/reduction/neighbored.cu"
expect_out "show says the file is not there yet" "(not there yet: cudalab start reduction/neighbored makes it)"

run cudalab show reduction/nope
expect_status "show an unknown exercise" 2
expect_err "unknown exercise is named" "unknown exercise 'reduction/nope'"
expect_eq "unknown exercise: one line, not every id" "$(wc -l <<<"$ERR")" 1
run cudalab show reduction/neighbored-les
expect_err "mistyped exercise: did you mean the nearest id" \
    "cudalab: unknown exercise 'reduction/neighbored-les'; did you mean 'reduction/neighbored-less'? (cudalab list shows them all)"
run cudalab grade neighbored
expect_status "an exercise without its chapter" 2
expect_err "an exercise without its chapter: did you mean the id" "did you mean 'reduction/neighbored'?"
run cudalab show zzzzzzzz
expect_err "nothing near: no suggestion" "unknown exercise 'zzzzzzzz' (cudalab list shows them all)"
run cudalab show
expect_status "show without an exercise" 2
run cudalab start reduction/nope
expect_status "start an unknown exercise" 2

# show and hint lay the Markdown out for the terminal: no Markdown marks, no line past its width
task=$CUDALAB_DATADIR_TEST/exercises/reduction/neighbored/task.md
grep -q '^```' "$task" && grep -q '`' "$task"
check "the task has code (fenced and inline) to render" $?
for cols in 60 80; do
    COLUMNS=$cols run cudalab show reduction/neighbored
    expect_out_lacks "show at $cols columns: no code fence" '```'
    expect_out_lacks "show at $cols columns: no inline-code backquote" '`'
    expect_out "show at $cols columns: a code block, indented" "    __global__ void reduceNeighbored("
    expect_eq "show at $cols columns: no line longer (but code)" \
        "$(grep -v '^    ' <<<"$OUT" | awk -v w="$cols" 'length($0) > w' | head -3)" ""
    COLUMNS=$cols run cudalab hint reduction/neighbored 1
    expect_status "hint at $cols columns" 0
    expect_out_lacks "hint at $cols columns: no inline-code backquote" '`'
    expect_eq "hint at $cols columns: no line longer" \
        "$(awk -v w="$cols" 'length($0) > w' <<<"$OUT" | head -3)" ""
done
run cudalab show reduction/neighbored
expect_out "show: the hints one at a time" "Hints: 3, one at a time: cudalab hint reduction/neighbored"
expect_out_lacks "show: not the file that holds every hint" "hints.md"

# --- next: the first exercise not passed, in course order ---
first=$(cudalab list --ids | head -1)
second=$(cudalab list --ids | sed -n 2p)
run cudalab next
expect_status "next" 0
expect_out "next: the first exercise at the start" "Next: $first  "
expect_out "next: how to begin it" "Begin with: cudalab start $first"
run cudalab grade "$first" "$E2E_SRC/solutions/$first.cu"
expect_status "next: the first exercise passes on the simulator" 0
run cudalab next
expect_out "next: after a pass, the next exercise" "Next: $second  "
# list: its columns whatever the titles' lengths, cut to the terminal, and the total progress
n_ex=$(cudalab list --ids | wc -l)
for cols in "" 80; do
    COLUMNS=$cols run cudalab list
    expect_out "list${cols:+ at $cols columns}: the total progress, in the words of the menu" \
        "Progress: 1 of $n_ex exercises passed, 10/"
    expect_out_re "list${cols:+ at $cols columns}: a pass in the menu's words" "^  $first +.* passed, last PASS\$"
    expect_eq "list${cols:+ at $cols columns}: every status in one column" "$(grep '^  [a-z]' <<<"$OUT" |
        awk '{ match($0, / (not started|passed, |attempted, )/); print RSTART }' | sort -u | wc -l)" 1
done
expect_eq "list at 80 columns: no line longer" "$(awk 'length($0) > 80' <<<"$OUT" | head -3)" ""
expect_out_re "list at 80 columns: a title too long for its column ends in ..." '^  [a-z/-]+ +[^ ].*\.\.\. '

run cudalab
expect_out "no command, after a pass: goes on with the first exercise not passed" \
    "Next:  cudalab start $second   (then: cudalab grade $second)"

run cudalab next --json
expect_json "next --json: the exercise and its file" \
    "j['exercise'] == '$second' and j['file'] == 'work/$second.cu'"

# --- start ---
starter=$CUDALAB_DATADIR_TEST/exercises/reduction/neighbored/starter.cu
run cudalab start reduction/neighbored
expect_status "start" 0
expect_out "start says what it made" "Created work/reduction/neighbored.cu from the starter."
expect_cmd "start copies the starter" cmp "$starter" work/reduction/neighbored.cu
[ ! -e work/reduction/neighbored-less.cu ]
check "start makes only its own exercise's file" $?

run cudalab show reduction/neighbored
expect_out_lacks "show after start: the file is there" "not there yet"

echo '// my change' >>work/reduction/neighbored.cu
cp work/reduction/neighbored.cu mine.cu
run cudalab start reduction/neighbored
expect_status "start again" 0
expect_out "start again says the file exists" "work/reduction/neighbored.cu already exists"
expect_cmd "start again keeps the learner's file" cmp mine.cu work/reduction/neighbored.cu

# --- device: this machine has no usable GPU ---
run cudalab device
expect_status "device without a GPU" 1
expect_out_re "device says 'no GPU:' and why" '^no GPU: .{10,}'
expect_out "device: without a GPU the simulator grades" \
    "Without a GPU the lab grades your kernels on its PTX simulator: their results,"
expect_out "device: speed on modelled times, measured ones need a GPU" \
    "simulator's counts, and says so; measured times need an NVIDIA GPU."
expect_out_lacks "device: does not say results need a GPU" "results need"
expect_out "device: the occupancy calculator on the lab's tables" \
    "The occupancy calculator is checked against the lab's own limits for sm_90."
CUDALAB_ARCH=sm_87 run cudalab device
expect_out "device: an architecture without the lab's limits" \
    "The lab has no limits of sm_87 of its own: the occupancy calculator needs a GPU."
run cudalab help profile
expect_out "help profile: the simulator's counters without a GPU" \
    "explain a kernel's counters: Nsight Compute's on a GPU, else the simulator's"
run cudalab device --json
expect_status "device --json without a GPU" 1
expect_json "device --json is valid JSON"
expect_json "device --json: present false, with a reason" \
    'j["present"] is False and len(j["reason"]) > 10 and j["name"] == ""'
run cudalab device --frobnicate
expect_status "device with an unknown argument" 2

# --- where the lab keeps and finds things ---
CUDALAB_DB=$T/elsewhere/my.db run cudalab list
expect_status "list with CUDALAB_DB" 0
[ -f "$T/elsewhere/my.db" ]
check "CUDALAB_DB places the store" $?
XDG_DATA_HOME=relative/data run cudalab list
expect_status "list with a relative XDG_DATA_HOME" 0
[ -f "$HOME/.local/share/cudalab/progress.db" ] && [ ! -e relative ]
check "a relative XDG_DATA_HOME is ignored for ~/.local/share" $?
: >"$T/a-file"
XDG_DATA_HOME=$T/a-file run cudalab list
expect_status "list with XDG_DATA_HOME a file" 2
expect_err "XDG_DATA_HOME a file: says why" "cannot create directory '$T/a-file': Not a directory"
CUDALAB_DATADIR=$T/no-such-dir run cudalab list
expect_status "list with a missing data dir" 2
expect_err "missing data dir: names it" "$T/no-such-dir/exercises"
CUDALAB_LIBEXECDIR=$T/no-such-dir run cudalab device
expect_status "device with a missing libexec dir" 2
expect_err "missing libexec dir: names the driver program" \
    "cannot run '$T/no-such-dir/cudalab-driver'"

e2e_finish
