#!/bin/bash
# tests/sim-corpus.sh - the course's kernel files, one per line: every
# solutions/*/*.cu, exercises/*/*/starter.cu and kernels/*.cu under ROOT
# (default: the source tree), the one-instruction conformance kernels
# tests/sim/conformance.cu (edge operands) and tests/sim/constructs.cu (what the
# simulator learned after the course's corpus: bar.red, negative offsets, ...),
# tests/sim/features.cu (the features of CUDA that NVIDIA's cuda-samples use) and
# tests/sim/warp-tiles.cu (tiles, half-mask reductions and spin locks: issue 32),
# recorded on a GPU like the rest.  Shared by the simulator's corpus test, the
# differential test and the GPU recorder, so the three see the same files.
# Exercises with rdc = true (device-side launches) are left out: they build only
# with -rdc=true (the simulator runs them: tests/e2e/test-dynpar.sh and
# tests/test-sim-dynpar.c).
# tests/sim-corpus.sh --arch FILE: the target FILE is built for on a GPU (compute_75, the
# lowest the lab supports; compute_90 for tests/sim/features.cu, whose cp.async and reserved
# shared memory need sm_80 and later, and tests/sim/warp-tiles.cu and
# solutions/reduction/warp-reduce.cu, whose redux.sync (__reduce_add_sync) does).
if [ "${1:-}" = --arch ]; then
    case $2 in
    tests/sim/features.cu | tests/sim/warp-tiles.cu | solutions/reduction/warp-reduce.cu) echo compute_90 ;;
    *) echo compute_75 ;;
    esac
    exit 0
fi
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 2
rdc=$(grep -lx 'rdc *= *true' exercises/*/*/exercise.ini 2>/dev/null | sed 's|^exercises/\(.*\)/exercise.ini$|\1|')
ls -1 solutions/*/*.cu exercises/*/*/starter.cu kernels/*.cu tests/sim/conformance.cu tests/sim/constructs.cu \
    tests/sim/features.cu tests/sim/warp-tiles.cu 2>/dev/null | sort |
    while read -r f; do
        for ex in $rdc; do
            [ "$f" = "solutions/$ex.cu" ] || [ "$f" = "exercises/$ex/starter.cu" ] && continue 2
        done
        echo "$f"
    done
