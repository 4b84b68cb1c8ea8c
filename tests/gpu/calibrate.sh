#!/bin/bash
# tests/gpu/calibrate.sh BIN LOGDIR: `cudalab calibrate` on the GPU in use (issue 31): with no
# step before it, each timed step's line on this GPU comes from the grading's own run.  The
# table names this GPU, lists every timed step with a line never above the manifest's, and
# says where a step's lesson does not show; the three steps below are graded once each and
# their JSON carries the line it used.  Prints ok/FAIL lines and exits 1 on any failure.
set -u
bin=${1:?usage: calibrate.sh BIN LOGDIR}
log=${2:?usage: calibrate.sh BIN LOGDIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME=$tmp/data XDG_CACHE_HOME=$tmp/cache CUDALAB_DB=$tmp/progress.db
steps="reduction/neighbored-less reduction/unrolling8 divergence/halfhalf-shared"
fail=0
ok() { printf 'ok   calibrate: %s\n' "$*"; }
bad() { fail=1; printf 'FAIL calibrate: %s\n' "$*"; }

name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
# shellcheck disable=SC2086
if "$bin" calibrate $steps >"$log/calibrate.txt" 2>&1; then ok "ran ($steps)"; else bad "exit $?"; fi
cat "$log/calibrate.txt"
grep -q "the speed lines on $name" "$log/calibrate.txt" && ok "names '$name'" || bad "does not name '$name'"
[ "$(grep -cE '^(reduction|divergence)/' "$log/calibrate.txt")" -eq 3 ] && ok "a line per step" ||
    bad "not a line per step"
for ex in $steps; do
    ch=${ex%%/*} name=${ex#*/}
    "$bin" grade "$ex" "$root/solutions/$ch/$name.cu" --no-record --json >"$tmp/ref.json" 2>/dev/null
    "$bin" grade "$ex" "$root/exercises/$ch/$name/starter.cu" --no-record --json >"$tmp/sta.json" 2>/dev/null
    read -r rv src line manifest < <(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); l=j["speed_line"]
print(j["verdict"], l["source"], l["min_speedup"], l["manifest_min_speedup"])' "$tmp/ref.json")
    sv=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["verdict"])' "$tmp/sta.json")
    echo "     $ex: reference $rv (line $line from $src, manifest $manifest), starter $sv"
    [ "$rv" = PASS ] && ok "$ex: the reference passes ($src)" || bad "$ex: reference $rv"
    python3 -c 'import sys; sys.exit(not float(sys.argv[1]) <= float(sys.argv[2]))' "$line" "$manifest" &&
        ok "$ex: the line is never above the manifest's" || bad "$ex: line $line above $manifest"
    [ "$sv" != PASS ] && ok "$ex: the starter does not pass ($sv)" || bad "$ex: the starter passed"
done
exit $fail
