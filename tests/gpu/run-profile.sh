#!/bin/bash
# make test-gpu, part 2 (issue 9): cudalab profile and inspect against NVIDIA's own tools.
#  1. `cudalab profile` on every exercise of the divergence and reduction
#     chapters (their solutions), and ncu run BY HAND on the same kernels in a
#     plain runtime-API program (tests/gpu/ncu-by-hand.cu) with the same
#     metrics; the deterministic counters (instructions per warp, branch
#     efficiency, threads per instruction) must agree within 2 %.  Both outputs
#     are printed for the closing note.
#  2. `cudalab inspect`'s occupancy against cuOccupancyMaxActiveBlocksPerMultiprocessor
#     (tests/gpu/occ-check.cu) for every exercise's solution and starter.
#  3. Records the ncu CSV fixture: reduction-h100.csv in $CUDALAB_GPU_LOG (copy it to
#     tests/fixtures/ncu/ and delete reduction-handwritten.csv).
# Needs nvcc, ncu and a GPU.  Prints "N passed, N failed".
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${CUDALAB_BIN:-$root/bin/cudalab}
tmp=$(mktemp -d)
log=${CUDALAB_GPU_LOG:-$tmp/log}
mkdir -p "$log"
export XDG_DATA_HOME=$tmp/data XDG_CACHE_HOME=$tmp/cache
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ncu=${CUDALAB_NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
pass=0 fail=0
ok() { pass=$((pass + 1)); printf 'ok   %s\n' "$*"; }
bad() { fail=$((fail + 1)); printf 'FAIL %s\n' "$*"; }
arch=$("$bin" device --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin).get("arch") or "sm_90")' 2>/dev/null || echo sm_90)

"$nvcc" -o "$tmp/occ-check" "$root/tests/gpu/occ-check.cu" -L"$(dirname "$nvcc")/../lib64/stubs" -lcuda || { bad "occ-check does not build"; exit 1; }
list=$("$bin" list --json | python3 -c 'import json,sys; [print(e["id"]) for e in json.load(sys.stdin)["exercises"] if e["kind"] == "device"]')

# --- 2. occupancy: inspect vs the CUDA occupancy API, every exercise -----------------
echo "== occupancy: cudalab inspect vs cuOccupancyMaxActiveBlocksPerMultiprocessor"
for ex in $list; do
    ch=${ex%%/*} name=${ex#*/}
    for f in "$root/solutions/$ch/$name.cu" "$root/exercises/$ch/$name/starter.cu"; do
        [ -f "$f" ] || continue
        "$bin" inspect "$ex" "$f" --json --summary >"$tmp/i.json" 2>"$tmp/i.err" || { bad "inspect $ex $(basename "$f"): $(cat "$tmp/i.err")"; continue; }
        read -r cubin mangled block lab_blocks lab_regs < <(python3 -c '
import json,sys; d=json.load(open(sys.argv[1]))
print(d["cubin"], d["kernel"]["mangled"], d["occupancy"]["block"], d["occupancy"]["blocks_per_sm"], d["kernel"]["registers"])' "$tmp/i.json")
        read -r api_blocks api_regs api_smem < <("$tmp/occ-check" "$cubin" "$mangled" "$block")
        line="$ex $(basename "$f") block $block: inspect $lab_blocks blocks/SM ($lab_regs regs), API $api_blocks ($api_regs regs)"
        if [ "$lab_blocks" = "$api_blocks" ] && [ "$lab_regs" = "$api_regs" ]; then ok "$line"; else bad "$line"; fi
    done
done

# --- 1. profile vs ncu by hand ---------------------------------------------------
echo "== profile: cudalab profile vs ncu by hand"
for ex in $list; do
    ch=${ex%%/*} name=${ex#*/}
    # a few steps of the two chapters whose counters the notes discuss (ncu replays are slow)
    case $ex in divergence/halfhalf | divergence/evenodd | reduction/neighbored | \
        reduction/neighbored-less | reduction/interleaved | reduction/unroll-warps8) ;;
    *) continue ;; esac
    sol=$root/solutions/$ch/$name.cu
    "$bin" profile "$ex" "$sol" | tee "$log/profile-$ch-$name.txt"
    if ! "$bin" profile "$ex" "$sol" --json >"$log/profile-$ch-$name.json" 2>"$log/profile-$ch-$name.err"; then
        bad "cudalab profile $ex: $(cat "$log/profile-$ch-$name.err")"; continue
    fi
    ok "cudalab profile $ex"
    read -r kernel mangled block metrics < <(python3 -c '
import json,sys; d=json.load(open(sys.argv[1])); s=[k for k in d["kernels"] if k["role"]=="student"][0]
print(s["kernel"], "-", 0, ",".join(m["ncu"] for m in s["metrics"]))' "$log/profile-$ch-$name.json")
    "$bin" inspect "$ex" "$sol" --json --summary >"$tmp/i.json"
    read -r mangled block < <(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["kernel"]["mangled"], d["occupancy"]["block"])' "$tmp/i.json")
    case $mangled in
        *PiS_j) sig=REDUCE ;;
        *Pf) sig=MATH ;;
        *) echo "     (no by-hand harness for $mangled)"; continue ;;
    esac
    "$nvcc" -O3 -arch="$arch" -include "$sol" -DKERNEL="$kernel" -D$sig -DBLOCK="$block" \
        -o "$tmp/by-hand" "$root/tests/gpu/ncu-by-hand.cu" || { bad "by-hand build of $kernel"; continue; }
    cmd=("$ncu" --clock-control none --csv --page raw --print-kernel-base function --metrics "$metrics" -k "$kernel" "$tmp/by-hand")
    echo "     by hand: ${cmd[*]}"
    "${cmd[@]}" >"$log/ncu-by-hand-$ch-$name.csv" 2>&1
    cat "$log/ncu-by-hand-$ch-$name.csv"
    if python3 - "$log/profile-$ch-$name.json" "$log/ncu-by-hand-$ch-$name.csv" <<'PY'; then ok "$ex: cudalab profile agrees with ncu by hand"; else bad "$ex: cudalab profile and ncu by hand differ"; fi
import csv, json, sys
prof = json.load(open(sys.argv[1]))
lab = {m["ncu"]: m["value"] for k in prof["kernels"] if k["role"] == "student" for m in k["metrics"]}
lines = open(sys.argv[2]).read().splitlines()
start = next(i for i, l in enumerate(lines) if l.startswith('"ID","Process ID"'))
rows = list(csv.reader(lines[start:]))
head, data = rows[0], [r for r in rows[1:] if r and r[0]]
hand = {h: data[-1][i].replace(",", "") for i, h in enumerate(head)}
bad = 0
for metric in ("smsp__average_inst_executed_per_warp.ratio",
               "smsp__sass_average_branch_targets_threads_uniform.pct",
               "smsp__thread_inst_executed_per_inst_executed.ratio"):
    if metric not in lab or metric not in hand:
        continue
    a, b = lab[metric], float(hand[metric])
    same = a is not None and abs(a - b) <= 0.02 * max(abs(b), 1e-9) + 1e-6
    print(f"     {metric:60s} lab {a}  by hand {b}  {'same' if same else 'DIFFERENT'}")
    bad += not same
sys.exit(1 if bad else 0)
PY
done

# --- 3. the ncu CSV fixture: the lab's own ncu command for reduction/neighbored-less -----------
if "$bin" profile reduction/neighbored-less "$root/solutions/reduction/neighbored-less.cu" --json >"$tmp/p.json" 2>/dev/null; then
    mapfile -t cmd < <(python3 -c 'import json,sys; [print(a) for a in json.load(open(sys.argv[1]))["command"]]' "$tmp/p.json")
    for i in "${!cmd[@]}"; do [ "${cmd[$i]}" = "--log-file" ] && cmd[$((i + 1))]=$log/reduction-h100.raw; done
    { "${cmd[@]}" 3>/dev/null >/dev/null 2>&1; } || true
    { printf '==PROF== recorded on %s by tests/gpu/run-profile.sh: %s\n' "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" "${cmd[*]}"
      cat "$log/reduction-h100.raw"; } >"$log/reduction-h100.csv"
    if grep -q '^"ID","Process ID"' "$log/reduction-h100.csv"; then ok "recorded $log/reduction-h100.csv"; else bad "no CSV recorded"; fi
else
    bad "cudalab profile reduction/neighbored-less for the fixture"
fi
rm -rf "$tmp/data" "$tmp/cache"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
