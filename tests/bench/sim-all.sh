#!/bin/bash
# tests/bench/sim-all.sh [-n N] [-e] [EXERCISE...]: every exercise's grading on the simulator
# (issue 20: "under 1.5 s for every exercise on a 2-core machine"; docs/bench/latency.md).
# Grades each exercise's reference solution, as a student would submit it, with --sim N times
# (default 3), after one untimed grading that fills the compile cache; with -e each grading
# first edits the file (a comment appended to a copy), so that nvcc runs every time.  Prints
# one line per exercise: the wall time of every grading in ms, their median, the verdict of
# the last; then the slowest median.  Exit status 1 when a reference is not graded PASS, or
# NO_GPU where the simulator can say no more ("correct on the simulator; its speed could not be
# modelled": the block-shape choices; a host-code exercise whose oracle is the GPU's own API).
set -u
n=3
# shellcheck source=tests/bench/opts.sh
. "$(dirname "$0")/opts.sh"
bench_opts "sim-all.sh [-n N] [-e] [EXERCISE...]" "$@"
shift $((OPTIND - 1))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME=$tmp/data XDG_CACHE_HOME=$tmp/cache

if [ $# -eq 0 ]; then
    mapfile -t all < <("$bin" list --json | python3 -c 'import json,sys
for e in json.load(sys.stdin)["exercises"]: print(e["id"])')
    set -- "${all[@]}"
fi
datadir=${CUDALAB_DATADIR:-$root}
bad=0
printf '%-32s %-28s %8s  %s\n' exercise "wall ms, each" median verdict
for ex in "$@"; do
    src=$tmp/${ex//\//-}.cu
    cp "$datadir/solutions/$ex.cu" "$src"
    "$bin" grade "$ex" "$src" --sim --no-record >/dev/null 2>&1 # the cache, the device probe
    times=()
    for i in $(seq "$n"); do
        $edit && printf '\n// edit %d\n' "$i" >>"$src"
        t0=$(date +%s%N)
        "$bin" grade "$ex" "$src" --sim --no-record --json >"$tmp/out" 2>"$tmp/err"
        t1=$(date +%s%N)
        times+=($(((t1 - t0) / 1000000)))
    done
    verdict=$(python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
ok = j["verdict"] == "PASS" or (j["verdict"] == "NO_GPU" and (
    j["message"].startswith("correct on the simulator") or "no GPU" in j["message"]))
print(j["verdict"] if ok else "%s (%s)" % (j["verdict"], j["message"][:80]))' "$tmp/out" 2>/dev/null) ||
        verdict="no report: $(head -c 80 "$tmp/err")"
    case $verdict in
    PASS | NO_GPU) ;;
    *) bad=1 ;;
    esac
    median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
    printf '%-32s %-28s %8s  %s\n' "$ex" "${times[*]}" "$median" "$verdict"
    echo "$median $ex" >>"$tmp/medians"
done
sort -n "$tmp/medians" | tail -1 | awk '{ printf "slowest median: %s ms (%s)\n", $1, $2 }'
exit $bad
