#!/bin/bash
# tests/gpu/loop-bench.sh LOGDIR [OLD_TREE]: issue 36's measurements in one GPU call, logs in LOGDIR.
#
#  1. the single pass and all its variants against CUB at 2^24, 2^28 and 2^30 (`make bench-reduce`,
#     tests/bench/reduce-vs-cub.cu; one process times them all side by side) -> bench-reduce.md;
#  2. the student's loop on reduction/neighbored-less, this tree's lab and OLD_TREE's (a built
#     checkout of main: its bin/cudalab, build/libexec/cudalab and data) in the same run, in turn:
#     a re-grade in `cudalab shell`, compile cached (tests/bench/shell-loop.py), the same after an
#     edit (nvcc runs), and a one-shot `cudalab grade` (tests/gpu/wall.sh) -> loop.txt.
#
# In a device call, with this tree's build copied under main's checkout as .gpu/36 (tracked files,
# bin/, build/libexec, build/bench, lib/ with libcjson.so.1 and libinih.so.1) and main's own build
# (bin/, build/libexec) as the old one:  cd .gpu/36 && LD_LIBRARY_PATH=$PWD/lib tests/gpu/loop-bench.sh $OUT/loop ../..
#
# Without a GPU (nvidia-smi fails) the bench is only built, and the loop runs on the simulator: the
# script is tried end to end on the build machine that way.  Takes about 3 minutes on an H200.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
log=${1:?usage: loop-bench.sh LOGDIR [OLD_TREE]}
old=${2:-}
mkdir -p "$log"
log=$(cd "$log" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ex=reduction/neighbored-less
src=$root/solutions/$ex.cu
cached=${LOOP_CACHED:-8} edits=${LOOP_EDITS:-5} oneshot=${LOOP_ONESHOT:-6}

{
    date -u
    echo "tree: $(git -C "$root" log -1 --format='%h %s' 2>/dev/null || echo "$root")"
    [ -n "$old" ] && echo "old tree: $(git -C "$old" log -1 --format='%h %s' 2>/dev/null || echo "$old")"
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv 2>&1 || echo "no GPU"
    uptime
} | tee "$log/machine.txt"
gpu=false
nvidia-smi -L >/dev/null 2>&1 && gpu=true

# 1. the single pass's variants
if make -C "$root" build/bench/reduce-vs-cub >"$log/bench-build.log" 2>&1; then
    if $gpu; then
        timeout 240 "$root/build/bench/reduce-vs-cub" >"$log/bench-reduce.md" 2>&1
        echo "bench-reduce: exit $? (1: a wrong sum; 124: past 240 s)" | tee -a "$log/bench-reduce.md"
    else
        echo "bench-reduce: built, not run (no GPU)" | tee "$log/bench-reduce.md"
    fi
else
    echo "bench-reduce: the build failed (bench-build.log)" | tee "$log/bench-reduce.md"
fi

# 2. the loop: LABEL TREE pairs
builds=("new" "$root")
[ -n "$old" ] && builds+=("old" "$old")
lab() { # LABEL TREE CMD...: run CMD with TREE's lab as the one under test
    local label=$1 tree=$2
    shift 2
    XDG_DATA_HOME=$tmp/$label/data XDG_CACHE_HOME=$tmp/$label/cache CUDALAB_DATADIR=$tree \
        CUDALAB_LIBEXECDIR=$tree/build/libexec/cudalab "$@"
}
{
    for round in 1 2; do # the builds in turn, twice, so that drift hits both alike
        for ((i = 0; i < ${#builds[@]}; i += 2)); do
            label=${builds[i]} tree=${builds[i + 1]}
            mkdir -p "$tmp/$label"
            cp "$src" "$tmp/$label/k.cu"
            echo -n "$label, round $round, shell: "
            (cd "$tmp/$label" && lab "$label" "$tree" python3 "$root/tests/bench/shell-loop.py" -n "$cached" \
                "$tree/bin/cudalab" "$ex" k.cu)
            echo -n "$label, round $round, shell: "
            (cd "$tmp/$label" && lab "$label" "$tree" python3 "$root/tests/bench/shell-loop.py" -n "$edits" -e \
                "$tree/bin/cudalab" "$ex" k.cu)
        done
    done
    specs=()
    for ((i = 0; i < ${#builds[@]}; i += 2)); do
        t=${builds[i + 1]}
        specs+=("${builds[i]}=$t/bin/cudalab:$t/build/libexec/cudalab:$t")
    done
    echo "one-shot cudalab grade $ex, compile cached (tests/gpu/wall.sh $oneshot):"
    XDG_DATA_HOME=$tmp/wall/data XDG_CACHE_HOME=$tmp/wall/cache "$root/tests/gpu/wall.sh" "$oneshot" "$ex" "$src" "${specs[@]}"
} 2>&1 | tee "$log/loop.txt"
echo "logs: $log"
