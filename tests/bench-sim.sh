#!/bin/bash
# tests/bench-sim.sh - the simulator's speed on 2^20-element reductions
# (docs/bench/sim.md): each kernel through kernel-run on the release build,
# with 1 and 2 worker threads, checks on and off.  Prints a Markdown table.
# warp-inst/s per core = warp instructions / CPU time of the launch (all threads).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
tool=${KERNEL_RUN:-$root/build/tools/kernel-run} # another build's, to compare
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| kernel | n | threads | checks | warp insts | wall s | CPU s | M warp-inst/s per core |"
echo "|---|---|---|---|---|---|---|---|"
for f in exercises/reduction/neighbored/starter.cu solutions/reduction/neighbored.cu \
    solutions/reduction/neighbored-less.cu; do
    nvcc -ptx -arch=sm_90 -O3 -lineinfo -o "$tmp/k.ptx" "$root/$f" || exit 1
    for checks in 1 0; do
        for threads in 1 2; do
            CUDALAB_SIM_CHECKS=$checks CUDALAB_SIM_THREADS=$threads "$tool" --n 1048576 --block 512 \
                "$tmp/k.ptx" | python3 -c '
import json, sys
k = json.load(sys.stdin)["kernels"][0]
s = k["sim"]
print("| %s (%s) | 2^20 | %s | %s | %d | %.3f | %.3f | %.1f |" % (k["name"], sys.argv[1], sys.argv[2],
      "on" if sys.argv[3] == "1" else "off", s["warp_insts"], k["launch_s"], k["launch_cpu_s"],
      s["warp_insts"] / k["launch_cpu_s"] / 1e6))' "$f" "$threads" "$checks"
        done
    done
done
