#!/bin/bash
# tests/fuzz/run.sh TARGET... - runs each fuzz target build/fuzz/fuzz-TARGET (tests/fuzz/fuzz-*.c)
# for $FUZZ_SECONDS (default 60), or until $FUZZ_RUNS inputs when that is set and comes first,
# seeded from the lab's own files of its kind.
#
# The corpus grows in build/fuzz/corpus/TARGET from one run to the next; a crash, a leak or
# a sanitizer report is kept as build/fuzz/artifacts/TARGET-crash-* (rerun it with
# `build/fuzz/fuzz-TARGET FILE`).  The last line is "N passed, N failed"; the exit status is 1
# if any target failed.
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
seconds=${FUZZ_SECONDS:-60}
runs_limit=${FUZZ_RUNS:+-runs=$FUZZ_RUNS}
cd "$src" || exit 2

seeds() { # TARGET: the lab's files of its kind
    case $1 in
    ptx) ls tests/fixtures/ptx/*.ptx build/tests/sim-*.ptx 2>/dev/null ;;
    constraints) ls tests/fixtures/ptx/*.ptx build/tests/sim-*.ptx build/tests/rules-*.ptx 2>/dev/null ;;
    manifest) ls exercises/*/*/exercise.ini ;;
    questions) ls exercises/*/questions.ini ;;
    translation) ls exercises/*/questions.*.ini exercises/*/*/hints.*.md 2>/dev/null ;;
    runreport) ls tests/fixtures/reports/*.json ;;
    ncu) ls tests/fixtures/ncu/*.csv ;;
    gradebook) ls exercises/*/*/examples/*/*.cu ;;
    esac
}

passed=0 failed=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cudalab-fuzz-run.XXXXXXXX")
trap 'rm -rf "$tmp"' EXIT
for t in "$@"; do
    bin=build/fuzz/fuzz-$t
    corpus=build/fuzz/corpus/$t
    seed=build/fuzz/seeds/$t
    log=build/fuzz/$t.log
    if [ ! -x "$bin" ]; then
        echo "FAIL - fuzz $t: $bin is missing (make $bin)"
        failed=$((failed + 1))
        continue
    fi
    mkdir -p "$corpus" "$seed" build/fuzz/artifacts
    seeds "$t" | while read -r f; do cp "$f" "$seed/$(echo "$f" | tr / _)"; done
    # TMPDIR: the targets that read a path write their inputs into a folder of their own there
    # shellcheck disable=SC2086 # runs_limit is one word or none
    if TMPDIR=$tmp "$bin" -max_total_time="$seconds" $runs_limit -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="build/fuzz/artifacts/$t-" \
        "$corpus" "$seed" >"$log" 2>&1; then
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        echo "ok - fuzz $t: ${runs:-?} inputs in ${seconds} s, no crash"
        passed=$((passed + 1))
    else
        echo "FAIL - fuzz $t: see $log and build/fuzz/artifacts/$t-*"
        grep -E 'ERROR|SUMMARY|runtime error' "$log" | head -5 | sed 's/^/    | /'
        failed=$((failed + 1))
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
