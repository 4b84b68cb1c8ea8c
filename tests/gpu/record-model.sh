#!/bin/bash
# tests/gpu/record-model.sh OUTDIR: what the performance model needs from one GPU, in one run
# (docs/bench/model.md): the device (nvidia-smi's name, clocks and driver, and the lab's own
# probe), then the times and verdicts of every timed device exercise's reference, starter,
# examples (ok and cheat: the wrong ones carry no time) and held-out files
# (tests/model/heldout/), recorded by record-times.sh with RECORD_JOBS=${RECORD_JOBS:-4}; with
# RECORD_LIMIT=S it is stopped after S seconds, keeping what it recorded by then.
# Writes OUTDIR/device.txt, OUTDIR/times.jsonl and OUTDIR/record.log; the last line of the log
# is record-times.sh's "N recorded, N failed".  Then, anywhere:
#     python3 tests/model/collect.py counts.jsonl -j 2 --from OUTDIR/times.jsonl
#     python3 tests/model/fit.py OUTDIR/times.jsonl counts.jsonl --gpu kernels/gpus/NAME.ini
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${CUDALAB_BIN:-$root/bin/cudalab}
dir=${1:?usage: record-model.sh OUTDIR}
mkdir -p "$dir"
start=$(date +%s)
{
    date -u '+%Y-%m-%d %H:%M:%S UTC'
    nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,memory.total,temperature.gpu,driver_version --format=csv 2>&1
    "$bin" device 2>&1
    nvcc --version 2>&1 | tail -2
} >"$dir/device.txt"
cat "$dir/device.txt"
# the timed device exercises: a speed step or a choice (timing_sizes not "none")
timed=$(python3 - "$root" <<'EOF'
import configparser, glob, os, sys
root = sys.argv[1]
for path in sorted(glob.glob(os.path.join(root, "exercises", "*", "*", "exercise.ini"))):
    cp = configparser.RawConfigParser(inline_comment_prefixes=(";",))
    cp.read(path)
    e = cp["exercise"]
    if e.get("timing_sizes", "").strip() != "none" and not e.get("family", "").startswith("host-"):
        print(e["id"])
EOF
)
limit=()
[ -n "${RECORD_LIMIT:-}" ] && limit=(timeout -s TERM "$RECORD_LIMIT")
RECORD_JOBS=${RECORD_JOBS:-4} "${limit[@]}" "$root/tests/gpu/record-times.sh" --examples ok,cheat --heldout \
    "$dir/times.jsonl" $timed >"$dir/record.log" 2>&1
rc=$?
echo "record-times: rc=$rc, $(($(date +%s) - start)) s" >>"$dir/record.log"
tail -2 "$dir/record.log"
exit $rc
