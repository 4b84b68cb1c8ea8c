#!/bin/bash
# tests/gpu/grade-examples.sh FILE... - grades each example submission named
# (exercises/CHAPTER/EXERCISE/examples/KIND/NAME.cu) on this machine's GPU and
# compares the verdict with the one its first line expects ("// expect: PASS
# (...)"): exactly, but PASS and SLOW both count for an ok/ example whose
# speed is what it is on this GPU.  Prints one line per file and "N of M as
# expected"; each grading's JSON goes to $OUT/examples/ (or a temp dir).
# GRADE_JOBS (4) gradings at a time: they compile in parallel and take the
# GPU one at a time (its lock).  Exit 1 when one is not as expected.
# Lighter than `cudalab check-exercise` (which also grades each exercise's
# solution, starter and every other example) where GPU time is short.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${CUDALAB_BIN:-$root/bin/cudalab}
log=${OUT:+$OUT/examples}
log=${log:-$(mktemp -d)}
mkdir -p "$log"
export XDG_DATA_HOME=${XDG_DATA_HOME:-$log/data} XDG_CACHE_HOME=${XDG_CACHE_HOME:-$log/cache}
one() {
    local f=$1 ex name want got
    ex=$(sed -n 's|^.*exercises/\([^/]*/[^/]*\)/examples/.*$|\1|p' <<<"$f")
    name=$(tr / _ <<<"${f#*exercises/}")
    want=$(sed -n '1s|^// expect: \([A-Z_]*\).*$|\1|p' "$f")
    "$bin" grade "$ex" "$f" --json --no-record >"$log/$name.json" 2>"$log/$name.err"
    got=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["verdict"])' "$log/$name.json" 2>/dev/null)
    if [ "$got" = "$want" ] || { [[ $f == */examples/ok/* ]] && [[ $got =~ ^(PASS|SLOW)$ ]]; }; then
        echo "ok   $f: $got"
    else
        echo "FAIL $f: expected ${want:-?}, got ${got:-nothing}: $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["message"])' "$log/$name.json" 2>/dev/null | cut -c1-200)"
    fi
}
export -f one
export bin log
printf '%s\n' "$@" | xargs -P "${GRADE_JOBS:-4}" -I{} bash -c 'one "$1"' _ {} | tee "$log/summary.txt"
total=$#
good=$(grep -c '^ok ' "$log/summary.txt")
echo "grade-examples: $good of $total as expected"
[ "$good" -eq "$total" ]
