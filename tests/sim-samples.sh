#!/bin/bash
# tests/sim-samples.sh - outside code on the simulator: NVIDIA's cuda-samples.
#
#     tests/sim-samples.sh [SAMPLES [OUT]]
#
# SAMPLES is a checkout of github:NVIDIA/cuda-samples (default ext/cuda-samples,
# ignored by git: fetch it there, it is not part of the tree); OUT the build
# folder (default build/sim-samples).  Every file of tests/sim-samples.list (the
# samples' .cu files that build without graphics headers) is compiled to PTX
# with `nvcc -ptx -arch=sm_90 -O3` and the samples' Common/ include folder (with
# -rdc=true when it needs device-side launches), and loaded on the simulator
# (build/tools/sim-call --load).  It prints one line per file, a table of the
# share that loads per folder of the samples, and then runs the kernels named in
# tests/sim-samples-run.py with real arguments, each compared with a CPU
# computation.  Exit 0 when at least 97 % of the files load and every named
# kernel's result equals the CPU's; 77 (skip) without SAMPLES.
set -u
tree=$(cd "$(dirname "$0")/.." && pwd)
samples=${1:-$tree/ext/cuda-samples}
out=${2:-$tree/build/sim-samples}
tool=${SIM_CALL:-$tree/build/tools/sim-call}
if [ ! -d "$samples/Samples" ]; then
    echo "skip: no cuda-samples in $samples (fetch github:NVIDIA/cuda-samples there)"
    exit 77
fi
[ -x "$tool" ] || { echo "no $tool: make build/tools/sim-call" >&2; exit 2; }
mkdir -p "$out/ptx" "$out/err"
samples=$(cd "$samples" && pwd)

# one file: FILE -> OUT/ptx/FILE_WITH_UNDERSCORES.ptx, unless it is there and newer
compile() {
    local f=$1 name ptx
    name=$(tr / _ <<<"$f")
    ptx=$out/ptx/$name.ptx
    [ "$ptx" -nt "$samples/$f" ] && return 0
    cd "$samples" || return 1
    nvcc -ptx -arch=sm_90 -O3 -I Common -I "$(dirname "$f")" -I "$(dirname "$f")/../inc" -o "$ptx" "$f" \
        2>"$out/err/$name" ||
        nvcc -ptx -arch=sm_90 -O3 -rdc=true -I Common -I "$(dirname "$f")" -I "$(dirname "$f")/../inc" \
            -o "$ptx" "$f" \
            2>>"$out/err/$name" || { rm -f "$ptx"; echo "nvcc failed: $f" >&2; }
}
export -f compile
export samples out
grep -v '^#' "$tree/tests/sim-samples.list" | xargs -P "${JOBS:-2}" -I{} bash -c 'compile "$1"' _ {}

# load each, in the order of the list
: >"$out/load.txt"
while read -r f; do
    ptx=$out/ptx/$(tr / _ <<<"$f").ptx
    if [ -f "$ptx" ]; then
        "$tool" --load "$ptx" | sed "s|$out/ptx/[^ :]*|$f|" >>"$out/load.txt"
    else
        echo "fail $f: nvcc failed (see $out/err)" >>"$out/load.txt"
    fi
done < <(grep -v '^#' "$tree/tests/sim-samples.list")
cat "$out/load.txt"
python3 - "$out/load.txt" <<'PY'
import collections, sys
rows = collections.OrderedDict()
for line in open(sys.argv[1]):
    verdict, rest = line.split(" ", 1)
    folder = rest.split("/")[1]
    n, ok = rows.get(folder, (0, 0))
    rows[folder] = (n + 1, ok + (verdict == "ok"))
print("\n| folder | files | load | share |\n|---|---:|---:|---:|")
for folder, (n, ok) in rows.items():
    print("| %s | %d | %d | %.0f %% |" % (folder, n, ok, 100.0 * ok / n))
n = sum(v[0] for v in rows.values()); ok = sum(v[1] for v in rows.values())
print("| **all** | **%d** | **%d** | **%.2f %%** |" % (n, ok, 100.0 * ok / n))
open(sys.argv[1] + ".share", "w").write("%d %d\n" % (ok, n))
PY
read -r ok n <"$out/load.txt.share"
status=0
if [ $((ok * 100)) -lt $((n * 97)) ]; then
    echo "FAIL: $ok of $n files load, less than 97 %"
    status=1
fi
python3 "$tree/tests/sim-samples-run.py" "$tool" "$out" || status=1
exit $status
