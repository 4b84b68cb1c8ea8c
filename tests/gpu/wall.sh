#!/bin/bash
# tests/gpu/wall.sh N EXERCISE FILE LABEL=BIN[:LIBEXEC] ...: the wall time of one grading
# (`cudalab grade EXERCISE FILE --no-record`, compile cached by a first, untimed grading) for each
# lab build, interleaved N times (A B A B ...) so that the machine's drift hits both alike; prints
# each build's times, median, min and max, and the verdicts it gave.  An old build is given as
# LABEL=path/to/cudalab:path/to/libexec (its CUDALAB_LIBEXECDIR); the data folder is this tree's,
# or the third field's (LABEL=BIN:LIBEXEC:DATADIR: an old lab may not read this tree's exercises).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
n=${1:?usage: wall.sh N EXERCISE FILE LABEL=BIN[:LIBEXEC] ...}
ex=$2 file=$3
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME=$tmp/data XDG_CACHE_HOME=$tmp/cache CUDALAB_DATADIR=$root

run() { # LABEL BIN LIBEXEC [DATADIR]: one grading, its wall time in ms appended to $tmp/LABEL
    local t0 t1 v
    t0=$(date +%s%N)
    v=$(CUDALAB_DATADIR=${4:-$root} CUDALAB_LIBEXECDIR=$3 "$2" grade "$ex" "$file" --no-record --json 2>/dev/null |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["verdict"])' 2>/dev/null)
    t1=$(date +%s%N)
    echo "$(((t1 - t0) / 1000000)) ${v:-ERROR}" >>"$tmp/$1"
}

run_spec() { # SUFFIX LABEL=BIN[:LIBEXEC[:DATADIR]]
    local label=${2%%=*} bin libexec data
    IFS=: read -r bin libexec data <<<"${2#*=}"
    run "$label$1" "$bin" "${libexec:-$root/build/libexec/cudalab}" "$data"
}
for spec in "$@"; do # a first grading of each build fills its compile cache
    run_spec -warm "$spec"
done
for _ in $(seq "$n"); do
    for spec in "$@"; do
        run_spec "" "$spec"
    done
done
for spec in "$@"; do
    label=${spec%%=*}
    sort -n "$tmp/$label" | awk -v l="$label" '{t[NR] = $1; v[$2]++}
        END {m = NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2;
             printf "%-8s median %5d ms  min %5d  max %5d  (%d gradings:", l, m, t[1], t[NR], NR;
             for (k in v) printf " %s %d", k, v[k]; print ")"}'
done
