#!/bin/bash
# tests/gpu/record-sim.sh [OUTDIR] - records the differential fixtures of the
# simulator on a GPU: every kernel of tests/sim-corpus.sh (the course's files and
# the one-instruction conformance kernels tests/sim/conformance.cu), compiled with
# nvcc -ptx -arch=compute_75 -O3 -lineinfo (the driver JITs it; a file that needs a newer
# target gets it: tests/sim-corpus.sh --arch), runs once with
# fixed seeds and small sizes through kernel-run --backend cuda; its outputs
# (buffer hashes and first words) and, when Nsight Compute is installed, the
# address-derived metrics (global load, store and atomic requests and sectors,
# shared wavefronts, instructions, branches) go to OUTDIR/<file>.json, a few KiB each, with the
# command, nvcc's version and the device that made them.
# OUTDIR defaults to $OUT/sim-diff if $OUT is set, else tests/fixtures/sim-diff.
# tests/e2e/test-sim-diff.sh compares the simulator against them (make test).
# Files are built SIM_DIFF_JOBS (8) at a time; the GPU runs one process at a time
# (a kernel run or an Nsight Compute profile), so counters see no other context.
# SIM_DIFF_FILES="tests/sim/conformance.cu ..." records only those files.
# SIM_DIFF_NCU=0 records the buffers only, without Nsight Compute's counters.
# SIM_DIFF_DUMP=DIR also keeps every output buffer whole (kernel-run --dump) in
# DIR/<file>/, to find which words differ when a hash does.
# The conformance kernels are not run under ncu: each thread does one load and
# one store, and what they test is the result bits.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-${OUT:+$OUT/sim-diff}}
out=${out:-$root/tests/fixtures/sim-diff}
tool=$root/build/tools/kernel-run
N=${SIM_DIFF_N:-4096} BLOCK=${SIM_DIFF_BLOCK:-256} SEED=${SIM_DIFF_SEED:-1}
# SIM_DIFF_BACKEND=sim records with the simulator itself: only to test this script and the
# comparison without a GPU, never for fixtures
BACKEND=${SIM_DIFF_BACKEND:-cuda}
mkdir -p "$out"
[ -x "$tool" ] || { echo "record-sim: build first (make)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
[ "${SIM_DIFF_NCU:-1}" = 0 ] && ncu= # buffers only, where GPU time is short
metrics=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum,l1tex__t_requests_pipe_lsu_mem_global_op_red.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__inst_executed.sum,smsp__warps_launched.sum,smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum
nvcc_version=$(nvcc --version | tail -1)
device=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
files=${SIM_DIFF_FILES:-$("$root/tests/sim-corpus.sh" "$root")}

record() { # FILE: builds, runs every kernel, writes OUTDIR/<file>.json
    local f=$1 name ptx kernels k dump=
    name=$(tr / _ <<<"${f%.cu}")
    ptx=$tmp/$name.ptx
    arch=$("$root/tests/sim-corpus.sh" --arch "$f")
    nvcc -ptx -arch=$arch -O3 -lineinfo -I"$root" -o "$ptx" "$root/$f" || { echo "FAIL nvcc $f"; return 1; }
    kernels=$(sed -n 's/^.*\.entry[[:space:]]*\([A-Za-z0-9_$]*\).*/\1/p' "$ptx")
    [ -n "${SIM_DIFF_DUMP:-}" ] && dump=$SIM_DIFF_DUMP/$name && mkdir -p "$dump"
    : >"$tmp/$name.runs"
    for k in $kernels; do
        # one process per kernel: a fault poisons only its own context
        flock "$tmp/gpu.lock" timeout 120 "$tool" --backend "$BACKEND" --n "$N" --block "$BLOCK" --seed "$SEED" --kernel "$k" \
            ${dump:+--dump "$dump"} "$ptx" >"$tmp/$name.$k.json" 2>"$tmp/$name.$k.err"
        echo "$k $tmp/$name.$k.json" >>"$tmp/$name.runs"
        if [ -n "$ncu" ] && [ "$f" != tests/sim/conformance.cu ]; then
            flock "$tmp/gpu.lock" timeout 300 "$ncu" --csv --metrics "$metrics" "$tool" --backend cuda --n "$N" \
                --block "$BLOCK" --seed "$SEED" --kernel "$k" "$ptx" >"$tmp/$name.$k.ncu" 2>/dev/null
        fi
    done
    python3 - "$f" "$tmp/$name.runs" "$out/$name.json" "$N" "$BLOCK" "$SEED" "$nvcc_version" "$device" "$arch" <<'PY'
import csv, io, json, os, sys
src, runs, dest, n, block, seed, nvcc, device, arch = sys.argv[1:]
fixture = {"source": src, "nvcc": "nvcc -ptx -arch=%s -O3 -lineinfo" % arch,
           "nvcc_version": nvcc, "device": device, "n": int(n), "block": int(block),
           "seed": int(seed),
           "command": "kernel-run --backend cuda --n %s --block %s --seed %s --kernel K" % (n, block, seed),
           "kernels": []}
for line in open(runs):
    k, path = line.split()
    try:
        run = json.load(open(path))["kernels"][0]
    except Exception as e:
        run = {"name": k, "status": "error", "error": "no output: %s" % e}
    for drop in ("launch_s", "launch_cpu_s"):
        run.pop(drop, None)
    ncu = path[:-5] + ".ncu"
    if os.path.exists(ncu):
        text = open(ncu).read()
        start = text.find('"ID"')
        m = {}
        if start >= 0:
            for row in csv.DictReader(io.StringIO(text[start:])):
                try:
                    m[row["Metric Name"]] = float(row["Metric Value"].replace(",", ""))
                except (KeyError, ValueError):
                    pass
        if m:
            run["ncu"] = m
    fixture["kernels"].append(run)
json.dump(fixture, open(dest, "w"), indent=1, sort_keys=True)
PY
    echo "recorded $f -> $out/$name.json ($(wc -c <"$out/$name.json") bytes)"
}
export -f record
export root tmp out tool N BLOCK SEED BACKEND ncu metrics nvcc_version device
printf '%s\n' $files | xargs -P "${SIM_DIFF_JOBS:-8}" -I{} bash -c 'record "$1"' _ {} | tee "$tmp/log"
echo "record-sim: $(grep -c '^recorded ' "$tmp/log") files recorded in $out"
