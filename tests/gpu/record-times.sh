#!/bin/bash
# tests/gpu/record-times.sh [--no-examples | --examples KINDS] [--heldout] OUT.jsonl [EXERCISE...]:
# grades the reference, the untouched starter, the examples (every kind, or the comma-separated
# KINDS of examples/KIND/: ok, cheat, wrong) and with --heldout the performance model's held-out
# files (tests/model/heldout/EXERCISE/*.cu) of each device exercise (default: all of the
# catalog's) once on this GPU and writes one JSON line per file to OUT.jsonl: the exercise, the
# file (relative to the checkout), its verdict and the driver's report without its per-case
# results (the device, the launch shape, every timed kernel's median, spread and bytes at each
# timing size, a choice exercise's sweep).  These are the measurements a performance model of
# the GPU is fitted on and checked against; they are recorded with the lab's own timing.
# The simulator's check beside each grading is left out (--no-sim-check): it adds nothing
# to a time.  RECORD_JOBS=J grades J files at once (default 1): they share one cache folder,
# so the lab's per-GPU lock still lets one driver at a time time the GPU, and only the
# compiles and process starts overlap (as REPEAT_JOBS in repeat.sh); the lines keep the files'
# order, and a signal (TERM, INT) keeps those recorded so far.  The last line on stdout: "N recorded, N failed".
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${CUDALAB_BIN:-$root/bin/cudalab}
kinds="ok cheat wrong" heldout=false
while [ $# -gt 0 ]; do
    case $1 in
    --no-examples) kinds= ;;
    --examples) kinds=${2//,/ }; shift ;;
    --heldout) heldout=true ;;
    *) break ;;
    esac
    shift
done
out=${1:?usage: record-times.sh [--no-examples | --examples KINDS] [--heldout] OUT.jsonl [EXERCISE...]}
shift
tmp=$(mktemp -d)
n=0
# assemble: the lines recorded so far into OUT.jsonl, in the files' order (also when stopped by
# a signal: what was recorded is kept) and the summary line
assemble() {
    local ok=0 bad=0 i
    : >"$out"
    for i in $(seq "$n"); do
        if [ -f "$tmp/line.$i" ]; then
            cat "$tmp/line.$i" >>"$out"
            ok=$((ok + 1))
        else
            bad=$((bad + 1))
        fi
    done
    echo "$ok recorded, $bad failed"
    rm -rf "$tmp"
    [ "$bad" -eq 0 ]
}
trap 'kill $(jobs -p) 2>/dev/null; wait; assemble; exit 143' TERM INT
export XDG_DATA_HOME=$tmp/data XDG_CACHE_HOME=$tmp/cache
exercises=${*:-$("$bin" list --json | python3 -c 'import json,sys; [print(e["id"]) for e in json.load(sys.stdin)["exercises"] if e["kind"] == "device"]')}
jobs=${RECORD_JOBS:-1}

# record I EX FILE: grades FILE; its JSON line in $tmp/line.I, its stdout line in $tmp/say.I
record() {
    local i=$1 ex=$2 f=$3
    "$bin" grade "$ex" "$root/$f" --json --no-record --no-sim-check >"$tmp/g.$i.json" 2>"$tmp/g.$i.err"
    if python3 - "$ex" "$f" "$tmp/g.$i.json" >"$tmp/part.$i" <<'EOF' && mv "$tmp/part.$i" "$tmp/line.$i"; then
import json, sys
ex, f, path = sys.argv[1:4]
g = json.load(open(path))
r = g.get("report") or {}
r.pop("cases", None)
print(json.dumps({"exercise": ex, "file": f, "verdict": g["verdict"], "speedup": g.get("speedup", 0),
                  "report": r}, separators=(",", ":")))
EOF
        printf '%-34s %-58s %s\n' "$ex" "$f" "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["verdict"])' "$tmp/g.$i.json")" >"$tmp/say.$i"
    else
        rm -f "$tmp/part.$i"
        printf '%-34s %-58s no report: %s\n' "$ex" "$f" "$(head -c 200 "$tmp/g.$i.err")" >"$tmp/say.$i"
    fi
    rm -f "$tmp/g.$i.json" "$tmp/g.$i.err"
}

for ex in $exercises; do
    ch=${ex%%/*} name=${ex#*/}
    files="solutions/$ch/$name.cu exercises/$ch/$name/starter.cu"
    for kind in $kinds; do
        for f in "$root"/exercises/"$ch"/"$name"/examples/"$kind"/*.cu; do
            [ -f "$f" ] && files="$files ${f#"$root"/}"
        done
    done
    for f in "$root"/tests/model/heldout/"$ch"/"$name"/*.cu; do
        $heldout && [ -f "$f" ] && files="$files ${f#"$root"/}"
    done
    for f in $files; do
        n=$((n + 1))
        if [ "$jobs" -le 1 ]; then
            record "$n" "$ex" "$f"
            cat "$tmp/say.$n"
            continue
        fi
        while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
        { record "$n" "$ex" "$f"; cat "$tmp/say.$n"; } &
    done
done
wait
assemble
