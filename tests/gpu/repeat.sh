#!/bin/bash
# tests/gpu/repeat.sh N [EXERCISE...]: grades each exercise's reference and its
# untouched starter N times (default: every device exercise of the catalog) and
# prints how often each passed -- the evidence that a step's thresholds sit
# clear of the measurement noise: the reference must pass N of N, the starter
# 0 of N.  One line per exercise, with the lines the reference's gradings were
# held to on this GPU and where they came from (manifest, this-gpu, or
# match-reference where the step's lesson does not show here: grading-policy.md);
# the last line "N passed, N failed".  No calibration step comes before it.
#
# REPEAT_JOBS=J grades J exercises at once (default 1).  They share one cache folder, so
# the lab's per-GPU lock still lets one driver at a time use the GPU: only the compiles,
# the simulator's checks and the process starts overlap, as in `cudalab batch`.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${CUDALAB_BIN:-$root/bin/cudalab}
n=${1:?usage: repeat.sh N [EXERCISE...]}
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME=$tmp/data XDG_CACHE_HOME=$tmp/cache
exercises=${*:-$("$bin" list --json | python3 -c 'import json,sys; [print(e["id"]) for e in json.load(sys.stdin)["exercises"] if e["kind"] == "device"]')}
jobs=${REPEAT_JOBS:-1}

# verdicts EX FILE: N verdicts, one per line, and each grading's message in $tmp/msgs
verdicts() {
    for _ in $(seq "$n"); do
        "$bin" grade "$1" "$2" --no-record --json 2>>"$tmp/err" | python3 -c '
import json, sys
try:
    j = json.load(sys.stdin)
    l = j.get("speed_line", {})
    line = "%s@%.3f" % (l["source"], l["min_speedup"]) if l else "-"
    print(j["verdict"], j.get("speedup", 0), j.get("fraction_of_reference", 0), line)
except Exception as e:
    print("ERROR", 0, 0, "-")'
    done
}

# one EX IDX: grades EX's reference and starter; its line in $tmp/line.IDX, "ok" or "bad" in $tmp/ok.IDX
one() {
    local ex=$1 ch=${1%%/*} name=${1#*/} ref sta rp sp range sv lines
    ref=$(verdicts "$ex" "$root/solutions/$ch/$name.cu")
    sta=$(verdicts "$ex" "$root/exercises/$ch/$name/starter.cu")
    rp=$(grep -c '^PASS ' <<<"$ref")
    sp=$(grep -c '^PASS ' <<<"$sta")
    range=$(awk '$2 > 0 { if (min == "" || $2 < min) min = $2; if ($2 > max) max = $2 } END { if (min != "") printf "%.3fx..%.3fx", min, max }' <<<"$ref")
    sv=$(awk '{ print $1 }' <<<"$sta" | sort | uniq -c | awk '{ printf "%s%s x%s", sep, $2, $1; sep = ", " }')
    # the reference's lines: each source with the range of its lines
    lines=$(awk '$4 != "-" { split($4, a, "@"); n[a[1]]++; if (!(a[1] in lo) || a[2] < lo[a[1]]) lo[a[1]] = a[2]; if (a[2] > hi[a[1]]) hi[a[1]] = a[2] }
        END { for (s in n) { printf "%s%s x%d", sep, s, n[s]; if (lo[s] > 0) printf " %.3f..%.3f", lo[s], hi[s]; sep = ", " } }' <<<"$ref")
    printf '%-34s %-22s %-22s %-22s %s\n' "$ex" "$rp/$n" "$sp/$n ($sv)" "$range" "$lines" >"$tmp/line.$2"
    if [ "$rp" -eq "$n" ] && [ "$sp" -eq 0 ]; then echo ok; else echo bad; fi >"$tmp/ok.$2"
}

printf '%-34s %-22s %-22s %-22s %s\n' exercise "reference PASS" "starter PASS" "speedups (reference: min..max)" "lines (reference: source xN min..max)"
i=0
for ex in $exercises; do
    i=$((i + 1))
    if [ "$jobs" -le 1 ]; then
        one "$ex" "$i"
        cat "$tmp/line.$i"
        continue
    fi
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
    { one "$ex" "$i"; sed 's/^/done: /' "$tmp/line.$i" >&2; } &
done
wait
[ "$jobs" -gt 1 ] && for j in $(seq "$i"); do cat "$tmp/line.$j"; done
ok=$(cat "$tmp"/ok.* 2>/dev/null | grep -c '^ok$')
bad=$((i - ok))
[ -s "$tmp/err" ] && { echo "stderr of the gradings:"; sort "$tmp/err" | uniq -c | head -20; }
echo "$ok passed, $bad failed"
[ "$bad" -eq 0 ]
