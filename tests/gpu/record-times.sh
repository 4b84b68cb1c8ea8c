#!/bin/bash
# tests/gpu/record-times.sh [--no-examples] OUT.jsonl [EXERCISE...]: grades the reference, the
# untouched starter and (unless --no-examples) every example of each device exercise (default: all of the catalog's) once on
# this GPU and writes one JSON line per file to OUT.jsonl: the exercise, the file (relative to
# the checkout), its verdict and the driver's report without its per-case results (the
# device, the launch shape, every timed kernel's median, spread and bytes at each timing
# size, a choice exercise's sweep).  These are the measurements a performance model of the
# GPU is fitted on and checked against; they are recorded with the lab's own timing.
# The simulator's check beside each grading is left out (--no-sim-check): it adds nothing
# to a time.  The last line on stdout: "N recorded, N failed".
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${CUDALAB_BIN:-$root/bin/cudalab}
examples=true
[ "${1:-}" = --no-examples ] && { examples=false; shift; }
out=${1:?usage: record-times.sh [--no-examples] OUT.jsonl [EXERCISE...]}
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME=$tmp/data XDG_CACHE_HOME=$tmp/cache
exercises=${*:-$("$bin" list --json | python3 -c 'import json,sys; [print(e["id"]) for e in json.load(sys.stdin)["exercises"] if e["kind"] == "device"]')}
: >"$out"
ok=0 bad=0
for ex in $exercises; do
    ch=${ex%%/*} name=${ex#*/}
    files="solutions/$ch/$name.cu exercises/$ch/$name/starter.cu"
    for f in "$root"/exercises/"$ch"/"$name"/examples/*/*.cu; do
        $examples && [ -f "$f" ] && files="$files ${f#"$root"/}"
    done
    for f in $files; do
        "$bin" grade "$ex" "$root/$f" --json --no-record --no-sim-check >"$tmp/g.json" 2>"$tmp/g.err"
        if python3 - "$ex" "$f" "$tmp/g.json" >>"$out" <<'EOF'; then
import json, sys
ex, f, path = sys.argv[1:4]
g = json.load(open(path))
r = g.get("report") or {}
r.pop("cases", None)
print(json.dumps({"exercise": ex, "file": f, "verdict": g["verdict"], "speedup": g.get("speedup", 0),
                  "report": r}, separators=(",", ":")))
EOF
            ok=$((ok + 1))
            printf '%-34s %-58s %s\n' "$ex" "$f" "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["verdict"])' "$tmp/g.json")"
        else
            bad=$((bad + 1))
            printf '%-34s %-58s no report: %s\n' "$ex" "$f" "$(head -c 200 "$tmp/g.err")"
        fi
    done
done
echo "$ok recorded, $bad failed"
[ "$bad" -eq 0 ]
