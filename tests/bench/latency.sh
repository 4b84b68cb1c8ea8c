#!/bin/bash
# tests/bench/latency.sh [-n N] [-e] EXERCISE FILE [GRADE-OPTION...]: where the time of one
# `cudalab grade` goes (docs/bench/latency.md).  Runs N traced gradings (default 5) of FILE,
# each with CUDALAB_TRACE set, after one untimed grading that fills the compile cache; with
# -e, each grading first edits the file (a comment with a counter is appended to a copy), so
# that nvcc runs every time.  Prints every grading's wall time, then the timeline of the
# grading with the median wall time: milliseconds since the shell started the command, the
# step since the previous line, the process (cudalab, a driver: the GPU's or the
# simulator's) and the mark.
set -u
n=5
# shellcheck source=tests/bench/opts.sh
. "$(dirname "$0")/opts.sh"
bench_opts "latency.sh [-n N] [-e] EXERCISE FILE [GRADE-OPTION...]" "$@"
shift $((OPTIND - 1))
ex=${1:?usage: latency.sh [-n N] [-e] EXERCISE FILE [GRADE-OPTION...]}
file=${2:?usage: latency.sh [-n N] [-e] EXERCISE FILE [GRADE-OPTION...]}
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME=$tmp/data XDG_CACHE_HOME=$tmp/cache
src=$tmp/$(basename "$file")
cp "$file" "$src"

"$bin" grade "$ex" "$src" --no-record "$@" >/dev/null 2>&1 # the cache, the store, the device probe
for i in $(seq "$n"); do
    $edit && printf '\n// edit %d\n' "$i" >>"$src"
    echo "$(date +%s.%N) 0 shell launch" >"$tmp/trace.$i"
    CUDALAB_TRACE=$tmp/trace.$i "$bin" grade "$ex" "$src" --no-record "$@" >"$tmp/out.$i" 2>&1
    echo "$(date +%s.%N) 0 shell exited" >>"$tmp/trace.$i"
done
python3 - "$tmp" "$n" <<'EOF'
import sys
tmp, n = sys.argv[1], int(sys.argv[2])
runs = []
for i in range(1, n + 1):
    lines = [l.rstrip("\n").split(" ", 3) for l in open(f"{tmp}/trace.{i}")]
    lines = [(float(t), pid, prog, what) for t, pid, prog, what in
             ((l[0], l[1], l[2], l[3] if len(l) > 3 else "") for l in lines)]
    lines.sort(key=lambda l: l[0])
    runs.append((lines[-1][0] - lines[0][0], i, lines))
print("wall ms:", " ".join("%.0f" % (r[0] * 1000) for r in runs))
wall, i, lines = sorted(runs)[len(runs) // 2]
verdict = open(f"{tmp}/out.{i}").read().strip().splitlines()
print("median grading (%d of %d): %.0f ms; %s" % (i, n, wall * 1000, verdict[-1][:100] if verdict else ""))
names, t0, prev = {}, lines[0][0], lines[0][0]
for t, pid, prog, what in lines:
    if prog != "shell" and prog != "0":
        names.setdefault(pid, prog if prog == "cudalab" else "%s %d" % (prog, sum(1 for v in names.values() if v.startswith(prog)) + 1))
for t, pid, prog, what in lines:
    who = names.get(pid, "shell")
    print("%8.1f %+8.1f  %-9s %s" % ((t - t0) * 1000, (t - prev) * 1000, who, what))
    prev = t
EOF
