#!/bin/bash
# tests/gpu/repeat.sh N [EXERCISE...]: grades each exercise's reference and its
# untouched starter N times (default: every device exercise of the catalog) and
# prints how often each passed -- the evidence that a step's thresholds sit
# clear of the measurement noise: the reference must pass N of N, the starter
# 0 of N.  One line per exercise; the last line "N passed, N failed".
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${CUDALAB_BIN:-$root/bin/cudalab}
n=${1:?usage: repeat.sh N [EXERCISE...]}
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME=$tmp/data XDG_CACHE_HOME=$tmp/cache
exercises=${*:-$("$bin" list --json | python3 -c 'import json,sys; [print(e["id"]) for e in json.load(sys.stdin)["exercises"] if e["kind"] == "device"]')}
ok=0 bad=0

# verdicts EX FILE: N verdicts, one per line, and each grading's message in $tmp/msgs
verdicts() {
    for _ in $(seq "$n"); do
        "$bin" grade "$1" "$2" --no-record --json 2>>"$tmp/err" | python3 -c '
import json, sys
try:
    j = json.load(sys.stdin)
    print(j["verdict"], j.get("speedup", 0), j.get("fraction_of_reference", 0))
except Exception as e:
    print("ERROR", 0, 0)'
    done
}

printf '%-34s %-22s %-22s %s\n' exercise "reference PASS" "starter PASS" "speedups (reference: min..max)"
for ex in $exercises; do
    ch=${ex%%/*} name=${ex#*/}
    ref=$(verdicts "$ex" "$root/solutions/$ch/$name.cu")
    sta=$(verdicts "$ex" "$root/exercises/$ch/$name/starter.cu")
    rp=$(grep -c '^PASS ' <<<"$ref")
    sp=$(grep -c '^PASS ' <<<"$sta")
    range=$(awk '$2 > 0 { if (min == "" || $2 < min) min = $2; if ($2 > max) max = $2 } END { if (min != "") printf "%.3fx..%.3fx", min, max }' <<<"$ref")
    sv=$(awk '{ print $1 }' <<<"$sta" | sort | uniq -c | awk '{ printf "%s%s x%s", sep, $2, $1; sep = ", " }')
    printf '%-34s %-22s %-22s %s\n' "$ex" "$rp/$n" "$sp/$n ($sv)" "$range"
    if [ "$rp" -eq "$n" ] && [ "$sp" -eq 0 ]; then ok=$((ok + 1)); else bad=$((bad + 1)); fi
done
[ -s "$tmp/err" ] && { echo "stderr of the gradings:"; sort "$tmp/err" | uniq -c | head -20; }
echo "$ok passed, $bad failed"
[ "$bad" -eq 0 ]
