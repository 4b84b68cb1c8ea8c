#!/bin/bash
# e2e-timeout: 300
# Every kernel of the course through the simulator: each file of
# tests/sim-corpus.sh is compiled by real nvcc for the lowest target the lab
# supports (compute_75; a newer one where the file needs it: sim-corpus.sh --arch)
# and for the lab's own arch (sm_90), and each of its
# kernels runs once on the simulator with seeded inputs (kernel-run).  A kernel
# the simulator cannot run (an unsupported instruction, a parse error) fails
# here; what its checks find with these made-up arguments is only shown.
set -u
. "$(dirname "$0")/lib.sh"

src=$CUDALAB_DATADIR_TEST
run_tool=$CUDALAB_KERNEL_RUN_TEST
files=$("$E2E_SRC/tests/sim-corpus.sh" "$src")
[ -n "$files" ]
check "the corpus lists kernel files" $?
nkernels=0
for f in $files; do
    for arch in $("$E2E_SRC/tests/sim-corpus.sh" --arch "$f") sm_90; do
        ptx=$T/$(tr / _ <<<"$f").$arch.ptx
        if ! nvcc -ptx -arch=$arch -O3 -lineinfo -I "$src" -o "$ptx" "$src/$f" 2>"$T/nvcc.err"; then
            fail "$f ($arch): nvcc" "$(cat "$T/nvcc.err")"
            continue
        fi
        CUDALAB_SIM_THREADS=2 timeout 120 "$run_tool" --backend sim --n 2048 --block 256 "$ptx" \
            >"$T/run.json" 2>"$T/run.err"
        summary=$(python3 - "$T/run.json" <<'PY'
import json, sys
try:
    j = json.load(open(sys.argv[1]))
except Exception as e:
    print("BAD no report: %s" % e); sys.exit()
for k in j["kernels"]:
    state = "ok" if k["status"] == "ok" else "BAD " + k.get("error", "")
    note = k.get("sim", {}).get("finding", "")
    print("%s %s %d%s" % (state, k["name"], k.get("sim", {}).get("warp_insts", 0),
                          ("  (check: " + note[:90] + ")") if note else ""))
PY
)
        while read -r line; do
            [ -z "$line" ] && continue
            case $line in
            ok\ *)
                nkernels=$((nkernels + 1))
                set -- $line
                pass "$f ($arch): $2 runs on the simulator ($3 warp instructions)${line#*$3}" ;;
            *) fail "$f ($arch): $line" "$(cat "$T/run.err")" ;;
            esac
        done <<<"$summary"
    done
done
[ "$nkernels" -gt 0 ]
check "the corpus ran $nkernels kernels" $?

e2e_finish
