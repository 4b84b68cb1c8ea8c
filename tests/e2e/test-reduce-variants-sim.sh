#!/bin/bash
# The single pass's variants in tests/bench/reduce-vs-cub.cu (TMA bulk loads with mbarriers, tickets
# handed out by a counter, more loads in flight) run on the simulator before any GPU times them:
# with every check on, each gives the reference's sum (the same output buffer, by its hash) at
# sizes that leave a partial chunk, a partial int4 and fewer chunks than blocks, and raises no
# finding.  The bulk kernels are built with static shared memory (kernel-run gives no dynamic).
set -u
. "$(dirname "$0")/lib.sh"

cat >variants.cu <<'CU'
#define REDUCE_VARIANTS_ONLY
#define BULK_STATIC_SHARED
#include "tests/bench/reduce-vs-cub.cu"
template __global__ void reduceVariant<4, PLAIN>(int *, int *, unsigned int);
template __global__ void reduceTickets<4, 4>(int *, int *, unsigned int);
template __global__ void reduceTickets<4, 8>(int *, int *, unsigned int);
template __global__ void reduceBulk<2, 16384, false>(int *, int *, unsigned int);
template __global__ void reduceBulk<4, 4096, false>(int *, int *, unsigned int);
template __global__ void reduceBulk<4, 4096, true>(int *, int *, unsigned int);
CU
run nvcc -ptx -arch=sm_90 -O3 -I"$E2E_SRC" -o variants.ptx variants.cu
expect_status "the variants compile to PTX" 0

for n in 1048579 70001 3; do
    CUDALAB_SIM_CHECKS=1 run "$CUDALAB_KERNEL_RUN_TEST" --backend sim --n $n --block 512 --seed 7 variants.ptx
    expect_status "n = $n: kernel-run" 0
    printf '%s' "$OUT" >run.json
    run python3 - run.json <<'PY'
import json, sys
ks = {k["name"]: k for k in json.load(open(sys.argv[1]))["kernels"] if "reduce" in k["name"]}
ref = ks.pop("_Z16reduceSinglePassPiS_j")
want = ref["buffers"][1]["hash"]
bad = [(n, k.get("status"), k.get("error"), k.get("sim", {}).get("finding")) for n, k in ks.items()
       if k.get("status") != "ok" or k["buffers"][1]["hash"] != want or k.get("sim", {}).get("finding")]
print("%d variants; wrong or flagged: %s" % (len(ks), bad))
sys.exit(len(ks) != 6 or bool(bad) or ref.get("status") != "ok" or bool(ref["sim"]["finding"]))
PY
    expect_status "n = $n: every variant sums as the reference does, no finding" 0
done

e2e_finish
