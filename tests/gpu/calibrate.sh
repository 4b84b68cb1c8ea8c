#!/bin/bash
# tests/gpu/calibrate.sh BIN LOGDIR: `cudalab calibrate` on the GPU in use
# (issue 8).  Calibrates three steps into a fresh store, then checks that the
# stored rows carry this GPU's name and clocks, that gradings here use them
# (the message says so, the JSON has calibrated: true), that the references
# still pass and the starters still do not.  Prints ok/FAIL lines and exits 1
# on any failure.
set -u
bin=${1:?usage: calibrate.sh BIN LOGDIR}
log=${2:?usage: calibrate.sh BIN LOGDIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME=$tmp/data XDG_CACHE_HOME=$tmp/cache CUDALAB_DB=$tmp/progress.db
steps="reduction/neighbored-less reduction/unrolling8 reduction/sum-reversed"
fail=0
ok() { printf 'ok   calibrate: %s\n' "$*"; }
bad() { fail=1; printf 'FAIL calibrate: %s\n' "$*"; }

# shellcheck disable=SC2086
if "$bin" calibrate $steps >"$log/calibrate.txt" 2>&1; then ok "ran ($steps)"; else bad "exit $?"; fi
cat "$log/calibrate.txt"
rows=$(python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1])
for r in c.execute("SELECT device, sm_clock_khz, mem_clock_khz, exercise, reference_speedup, min_speedup FROM calibration ORDER BY exercise"): print("|".join(map(str, r)))' "$CUDALAB_DB" 2>&1)
echo "$rows" | sed 's/^/     row: /'
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
[ "$(grep -c "^$name|[1-9][0-9]*|[1-9][0-9]*|" <<<"$rows")" -eq 3 ] && ok "three rows keyed by '$name' and its clocks" ||
    bad "the stored rows are not three rows of '$name' with clocks"
for ex in $steps; do
    ch=${ex%%/*} name=${ex#*/}
    "$bin" grade "$ex" "$root/solutions/$ch/$name.cu" --no-record --json >"$tmp/ref.json" 2>/dev/null
    "$bin" grade "$ex" "$root/exercises/$ch/$name/starter.cu" --no-record --json >"$tmp/sta.json" 2>/dev/null
    read -r rv rc rm < <(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["verdict"], j["calibrated"], j["message"])' "$tmp/ref.json")
    sv=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["verdict"])' "$tmp/sta.json")
    echo "     $ex: reference $rv ($rm), starter $sv"
    [ "$rv" = PASS ] && [ "$rc" = True ] && [[ $rm == *"calibrated on this GPU"* ]] &&
        ok "$ex: the reference passes on the calibrated threshold" || bad "$ex: reference $rv, calibrated $rc"
    [ "$sv" != PASS ] && ok "$ex: the starter does not pass ($sv)" || bad "$ex: the starter passed"
done
exit $fail
