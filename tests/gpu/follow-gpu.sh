#!/bin/bash
# tests/gpu/follow-gpu.sh N LOGDIR [PART...]: issue 31's check that the speed lines follow the GPU
# in use, with no calibration step before: its name and clocks (LOGDIR/gpu.txt), the line each
# timed step gets here and whether its lesson shows (`cudalab calibrate --all`, LOGDIR/lines.txt),
# then `tests/gpu/repeat.sh N` over the parts named (LOGDIR/repeat-N-PART.txt): every reference
# must pass N of N and every starter 0 of N.  The parts split the catalog for machines that
# limit one command's time (N = 20 takes about 6 to 10 minutes a part on an H100 with
# REPEAT_JOBS=3, the default here):
#   divergence  the timed divergence steps, whose references an H200 failed on the H100's lines
#   first       the untimed steps, the choices, dynpar, reduction/neighbored and neighbored-less
#   ladder      the integer ladder from interleaved to single-pass
#   float       the float ladder
# No part named: all four.  Exits 1 when a part fails or the table cannot be made.
set -u
n=${1:?usage: follow-gpu.sh N LOGDIR [PART...]}
log=${2:?usage: follow-gpu.sh N LOGDIR [PART...]}
shift 2
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${CUDALAB_BIN:-$root/bin/cudalab}
export REPEAT_JOBS=${REPEAT_JOBS:-3}
mkdir -p "$log"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

declare -A parts=(
    [divergence]="divergence/evenodd divergence/soa divergence/halfhalf-shared divergence/evenodd-shared"
    [first]="warp/thread-ids warp/active-lanes divergence/halfhalf divergence/aos blockshape/sum-matrix-bounds
             blockshape/fastest-shape occupancy/block-size dynpar/nested-reduce reduction/neighbored
             reduction/neighbored-less"
    [ladder]="reduction/interleaved reduction/unrolling2 reduction/unrolling4 reduction/unrolling8
              reduction/unroll-warps8 reduction/complete-unroll-warps8 reduction/complete-unroll
              reduction/single-pass"
    [float]="reduction/sum-atomic reduction/sum-shared-atomic reduction/sum-tournament reduction/sum-reversed
             reduction/sum-add-first reduction/sum-last-warp reduction/sum-shuffle reduction/sum-two-level"
)
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(divergence first ladder float)

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee "$log/gpu.txt"
git -C "$root" log -1 --format='commit %h %s' 2>/dev/null | tee -a "$log/gpu.txt"
# a store of its own: nothing calibrated, nothing remembered
XDG_DATA_HOME=$tmp/data XDG_CACHE_HOME=$tmp/cache "$bin" calibrate --all 2>&1 | tee "$log/lines.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || fail=1
for p in "${names[@]}"; do
    [ -n "${parts[$p]:-}" ] || { echo "follow-gpu: no part '$p' (divergence, first, ladder, float)"; exit 2; }
    # shellcheck disable=SC2086
    "$root/tests/gpu/repeat.sh" "$n" ${parts[$p]} 2>&1 | tee "$log/repeat-$n-$p.txt"
    [ "${PIPESTATUS[0]}" -eq 0 ] || fail=1
done
exit $fail
