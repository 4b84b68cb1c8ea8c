#!/bin/bash
# check-exercise's failures as file:line, a broken manifest among good ones,
# and new-exercise scaffolding something that check-exercise accepts (the
# whole catalog is checked by test-check-catalog.sh).
set -u
. "$(dirname "$0")/lib.sh"

# the simulator (where there is one) at small sizes: the sanitized simulator is slow
export CUDALAB_SIM_MAX_SIZE=65536

run cudalab check-exercise
expect_status "check-exercise without an exercise: usage" 2
run cudalab check-exercise reduction/nope
expect_status "check-exercise unknown exercise: error" 2
expect_err "check-exercise unknown exercise: says so" "unknown exercise 'reduction/nope'"

# --- failures, each as file:line: message ---
d=$T/data-bad
copy_datadir "$d"
ex=$d/exercises/reduction/neighbored-less
# an example that names the wrong verdict, one that names none, a bad key type
# only the examples these checks need (each grading costs time, more on the simulator)
rm -rf "$d"/exercises/reduction/*/examples
# and only the reduction chapter: --all below grades every solution and starter of the copy
find "$d/exercises" -mindepth 1 -maxdepth 1 -type d ! -name reduction -exec rm -rf {} +
mkdir -p "$ex/examples/wrong"
cp "$CUDALAB_DATADIR_TEST/exercises/reduction/neighbored-less/examples/wrong/half-strides.cu" "$ex/examples/wrong/liar.cu"
sed -i '1s/.*/\/\/ expect: CONSTRAINT (it is not)/' "$ex/examples/wrong/liar.cu"
printf '__global__ void k() {}\n' >"$ex/examples/wrong/unnamed.cu"
# a third exercise whose manifest is broken
mkdir -p "$d/exercises/reduction/broken"
sed 's/^block = 512/block = lots/; s|^id = .*|id = reduction/broken|' "$ex/exercise.ini" \
    >"$d/exercises/reduction/broken/exercise.ini"
line=$(grep -n '^block' "$d/exercises/reduction/broken/exercise.ini" | cut -d: -f1)
sline=$(grep -n '^starter' "$d/exercises/reduction/broken/exercise.ini" | cut -d: -f1)
CUDALAB_DATADIR=$d run cudalab check-exercise --all
expect_status "broken catalog: check-exercise fails" 1
# (without a GPU: it compiles and meets the constraints; on the simulator: WRONG)
expect_out_re "broken catalog: the lying example, file:1" \
    "^$ex/examples/wrong/liar.cu:1: expected CONSTRAINT, (but it compiles and meets the constraints|got WRONG)"
expect_out "broken catalog: the unnamed example, file:1" \
    "$ex/examples/wrong/unnamed.cu:1: the first line must name the expected verdict"
expect_out "broken catalog: the manifest's bad key, file:line" \
    "$d/exercises/reduction/broken/exercise.ini:$line: 'block': 'lots' is not a block shape (X, XxY or XxYxZ, 1 to 1024 threads)"
expect_out "broken catalog: a missing file, file:line" \
    "$d/exercises/reduction/broken/exercise.ini:$sline: 'starter': 'starter.cu' does not exist"
expect_out_re "broken catalog: 6 failed" '^check-exercise: .* 6 failed'
# the good exercise among them is still checked
CUDALAB_DATADIR=$d run cudalab check-exercise reduction/neighbored-less
expect_out_lacks "broken catalog: the other manifest's problem is not neighbored-less's" "'block'"

# an example the simulator cannot run (a prefetch it does not model) is the simulator's limit, not
# a problem of the exercise: said as not checked, and the check passes
d4=$T/data-simlimit
copy_datadir "$d4"
rm -rf "$d4"/exercises/reduction/*/examples
find "$d4/exercises" -mindepth 1 -maxdepth 1 -type d ! -name reduction -exec rm -rf {} +
mkdir -p "$d4/exercises/reduction/neighbored-less/examples/ok"
{
    echo '// expect: PASS (the reference with an L2 prefetch, which changes nothing on a GPU)'
    sed 's|^\(__global__ void reduceNeighboredLess(.*)\) *{$|\1 {\n    asm volatile("prefetch.global.L2 [%0];" : : "l"(g_idata));|' \
        "$d4/solutions/reduction/neighbored-less.cu"
} >"$d4/exercises/reduction/neighbored-less/examples/ok/prefetch.cu"
grep -q 'prefetch.global' "$d4/exercises/reduction/neighbored-less/examples/ok/prefetch.cu"
check "simulator's limit: the example has its prefetch" $?
CUDALAB_DATADIR=$d4 run cudalab check-exercise reduction/neighbored-less
if [ -e /dev/nvidiactl ]; then
    echo "skip - simulator's limit: a GPU grades the example" | tee -a "$E2E_RESULTS"
else
    expect_status "simulator's limit: check-exercise passes" 0
    expect_out "simulator's limit: the example is named as not run on the simulator" \
        "prefetch.cu:1: note: compiled, constraints hold; the simulator cannot run it"
    expect_out_lacks "simulator's limit: not a failure" "expected PASS, got SIM_UNSUPPORTED"
fi

# speed on the simulator's modelled times (issue 20): compared with what each file expects,
# said to be modelled and counted apart, never as speed checked; an untouched starter that passes
# on them fails the check (a student without a GPU would pass with it), an example the model
# disagrees with is left unchecked; the simulator capped below the model's sizes gives no speed
# verdict at all.  2^18 is the size the model counts at.
d5=$T/data-modelled
copy_datadir "$d5"
rm -rf "$d5"/exercises/reduction/*/examples
find "$d5/exercises" -mindepth 1 -maxdepth 1 -type d ! -name reduction -exec rm -rf {} +
nl=$d5/exercises/reduction/neighbored-less
mkdir -p "$nl/examples/ok" "$nl/examples/cheat"
cp "$E2E_SRC/exercises/reduction/neighbored-less/examples/cheat/previous-step.cu" "$nl/examples/cheat/"
{
    echo '// expect: PASS (the starter, named as a pass: the model says SLOW)'
    cat "$nl/starter.cu"
} >"$nl/examples/ok/starter-as-pass.cu"
cp "$d5/solutions/reduction/neighbored-less.cu" "$nl/starter.cu"
if [ -e /dev/nvidiactl ]; then
    echo "skip - modelled speed: a GPU measures it" | tee -a "$E2E_RESULTS"
else
    CUDALAB_DATADIR=$d5 CUDALAB_SIM_MAX_SIZE=262144 run cudalab check-exercise reduction/neighbored-less
    expect_status "modelled speed: a starter that passes fails the check" 1
    expect_out "modelled speed: the solution's PASS, named as modelled" \
        "solutions/reduction/neighbored-less.cu:1: note: PASS on times modelled for an H100, as expected; speed modelled, not measured"
    expect_out "modelled speed: a SLOW example, named as modelled" \
        "previous-step.cu:1: note: SLOW on times modelled for an H100, as expected; speed modelled, not measured"
    expect_out "modelled speed: the passing starter is a problem" \
        "starter.cu:1: the untouched starter passes on times modelled for an H100, so a student without a GPU passes with it: modelled for an H100, not measured"
    expect_out "modelled speed: an example the model disagrees with is noted, unchecked" \
        "starter-as-pass.cu:1: note: expected PASS, but SLOW on times modelled for an H100: speed not checked; grade it on a GPU"
    expect_out_re "modelled speed: the summary counts the modelled verdicts apart" \
        '^check-exercise: 5 checks, 2 examples, 1 failed, 2 speed verdicts modelled, not measured(, translations \([a-zA-Z_, ]+\): [0-9]+ missing, [0-9]+ stale)?, 1 not run on a GPU: speed was not checked'
    expect_out_lacks "modelled speed: never 'speed checked'" "speed checked"
    CUDALAB_DATADIR=$d5 run cudalab check-exercise reduction/neighbored-less
    expect_out "the simulator capped below the model's sizes: correct, speed not checked" \
        "previous-step.cu:1: note: correct on the simulator, speed not checked (correct on the simulator; no speed verdict: the performance model counts at n = 262144, and CUDALAB_SIM_MAX_SIZE=65536 keeps the simulator below it"
    expect_out_lacks "the simulator capped below the model's sizes: nothing modelled" "modelled, not measured"
    expect_status "the simulator capped below the model's sizes: nothing tells the starter from the solution, nothing fails" 0
fi

# a solution that breaks a constraint fails the check
d2=$T/data-badsol
copy_datadir "$d2"
cp "$d2/exercises/reduction/neighbored/examples/cheat/atomic-add.cu" "$d2/solutions/reduction/neighbored.cu"
rm -rf "$d2"/exercises/reduction/*/examples
CUDALAB_DATADIR=$d2 run cudalab check-exercise reduction/neighbored
expect_status "solution breaking a constraint: fails" 1
expect_out "solution breaking a constraint: file:line and verdict" \
    "$d2/solutions/reduction/neighbored.cu:1: expected PASS, got CONSTRAINT"

# --- new-exercise ---
d3=$T/data-new
copy_datadir "$d3"
rm -rf "$d3"/exercises/reduction/*/examples
CUDALAB_DATADIR=$d3 run cudalab new-exercise reduction/my-step --family reduce-int --like reduction/neighbored-less
expect_status "new-exercise --like: ok" 0
expect_out "new-exercise: lists the manifest" "$d3/exercises/reduction/my-step/exercise.ini"
expect_out "new-exercise: says what to run next" "cudalab check-exercise reduction/my-step"
for f in exercises/reduction/my-step/task.md exercises/reduction/my-step/hints.md \
    exercises/reduction/my-step/starter.cu \
    solutions/reduction/my-step.cu; do
    [ -f "$d3/$f" ]
    check "new-exercise: wrote $f" $?
done
grep -qx 'format = 1' "$d3/exercises/reduction/my-step/exercise.ini"
check "new-exercise: the manifest says format = 1" $?
CUDALAB_DATADIR=$d3 run cudalab list
expect_out "new-exercise: the catalog lists it" "reduction/my-step"
CUDALAB_DATADIR=$d3 run cudalab check-exercise reduction/my-step
expect_status "new-exercise: the scaffold passes check-exercise" 0
expect_out "new-exercise: check-exercise asks for wrong examples" "0 wrong example(s)"
CUDALAB_DATADIR=$d3 run cudalab new-exercise reduction/my-step --family reduce-int
expect_status "new-exercise twice: refused" 2
expect_err "new-exercise twice: says it exists" "exists already: nothing written"
CUDALAB_DATADIR=$d3 run cudalab new-exercise reduction/x --family no-such-family
expect_status "new-exercise unknown family: refused" 2
expect_err "new-exercise unknown family: says so, with the families" \
    "--family: 'no-such-family' is not one of: reduce-int, "
# every family of the registry: a template whose starter compiles and defines the kernel with
# the family's parameters (whatever it computes: the verdict is never COMPILE_ERROR)
families=$(sed -n 's/^LAB_FAMILY([a-z_]*, "\([a-z-]*\)".*/\1/p' "$E2E_SRC/lab/catalog/families.def")
[ "$(wc -w <<<"$families")" -ge 11 ]
check "new-exercise: the registry lists every family ($(wc -w <<<"$families"))" $?
for fam in $families; do
    CUDALAB_DATADIR=$d3 run cudalab new-exercise "scaffold/$fam" --family "$fam"
    expect_status "new-exercise --family $fam: ok" 0
    CUDALAB_DATADIR=$d3 run cudalab grade "scaffold/$fam" "$d3/exercises/scaffold/$fam/starter.cu" \
        --no-record
    expect_out_lacks "new-exercise --family $fam: the template compiles" "COMPILE_ERROR"
    # its empty reference is wrong (a lab error), or it needs a GPU: either way the driver ran
    ! grep -q "defines no\|refused its arguments" <<<"$OUT$ERR"
    check "new-exercise --family $fam: the driver finds the template's function" $?
done
CUDALAB_DATADIR=$d3 run cudalab new-exercise 'Bad Name' --family reduce-int
expect_status "new-exercise bad id: refused" 2
CUDALAB_DATADIR=$d3 run cudalab new-exercise reduction/y --family reduce-int --like reduction/zz
expect_err "new-exercise unknown --like: says so" "--like: unknown exercise 'reduction/zz'"

e2e_finish
