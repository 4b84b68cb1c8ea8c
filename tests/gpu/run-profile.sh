#!/bin/bash
# make test-gpu, part 2 (issue 9): cudalab profile and inspect against NVIDIA's own tools.
#  1. `cudalab profile` on every exercise of the divergence and reduction
#     chapters (their solutions), and ncu run BY HAND on the same kernels in a
#     plain runtime-API program (tests/gpu/ncu-by-hand.cu) with the same
#     metrics and launch; the deterministic counters (instructions per warp,
#     branch efficiency, threads per instruction, bytes per sector, sectors per
#     request) must agree within 2 %.  Both outputs
#     are printed for the closing note.
#  2. `cudalab inspect`'s occupancy against cuOccupancyMaxActiveBlocksPerMultiprocessor
#     (tests/gpu/occ-check.cu) for every exercise's solution and starter.
#  3. Records the ncu CSV fixture: reduction-h100.csv in $CUDALAB_GPU_LOG (copy it to
#     tests/fixtures/ncu/ and delete reduction-handwritten.csv).
# CUDALAB_PROFILE_EXERCISES="ID ..." limits parts 1 and 2 to those exercises.
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

"$nvcc" -I"$root" -o "$tmp/occ-check" "$root/tests/gpu/occ-check.cu" -L"$(dirname "$nvcc")/../lib64/stubs" -lcuda || { bad "occ-check does not build"; exit 1; }
list=$("$bin" list --json | python3 -c 'import json,sys; [print(e["id"]) for e in json.load(sys.stdin)["exercises"] if e["kind"] == "device"]')
list=${CUDALAB_PROFILE_EXERCISES:-$list} # a few ids instead of every device exercise

# --- 2. occupancy: inspect vs the CUDA occupancy API, every exercise -----------------
echo "== occupancy: cudalab inspect vs cuOccupancyMaxActiveBlocksPerMultiprocessor"
for ex in $list; do
    ch=${ex%%/*} name=${ex#*/}
    for f in "$root/solutions/$ch/$name.cu" "$root/exercises/$ch/$name/starter.cu"; do
        [ -f "$f" ] || continue
        if ! "$bin" inspect "$ex" "$f" --json --summary >"$tmp/i.json" 2>"$tmp/i.err"; then
            # a starter the student must first fix (dynpar's calls the removed
            # device-side cudaDeviceSynchronize) has no compiled kernel to inspect
            if [[ $f == */starter.cu ]] && grep -q "does not compile" "$tmp/i.err"; then
                printf 'skip %s starter.cu: it does not compile (by design)\n' "$ex"
            else
                bad "inspect $ex $(basename "$f"): $(cat "$tmp/i.err")"
            fi
            continue
        fi
        read -r cubin mangled block lab_blocks lab_regs < <(python3 -c '
import json,sys; d=json.load(open(sys.argv[1]))
print(d["cubin"], d["kernel"]["mangled"], d["occupancy"]["block"], d["occupancy"]["blocks_per_sm"], d["kernel"]["registers"])' "$tmp/i.json")
        read -r api_blocks api_regs api_smem < <("$tmp/occ-check" "$cubin" "$mangled" "$block")
        line="$ex $(basename "$f") block $block: inspect $lab_blocks blocks/SM ($lab_regs regs), API $api_blocks ($api_regs regs)"
        if [ "$lab_blocks" = "$api_blocks" ] && [ "$lab_regs" = "$api_regs" ]; then ok "$line"; else bad "$line"; fi
    done
done

# --- 1. profile vs ncu by hand ---------------------------------------------------
# Every exercise of the divergence chapter and the reduction steps whose kernel
# signature the by-hand harness has (ncu replays are slow: a chosen set of the
# int ladder, two float steps and the single pass).  The by-hand launch takes
# size, block, unroll and grid from the driver command `cudalab profile` ran.
echo "== profile: cudalab profile vs ncu by hand"
for ex in $list; do
    ch=${ex%%/*} name=${ex#*/}
    case $ex in divergence/*| reduction/neighbored | reduction/neighbored-less | \
        reduction/interleaved | reduction/unrolling8 | reduction/unroll-warps8 | \
        reduction/sum-reversed | reduction/sum-shuffle | reduction/single-pass) ;;
    *) continue ;; esac
    sol=$root/solutions/$ch/$name.cu
    if ! "$bin" profile "$ex" "$sol" --json >"$log/profile-$ch-$name.json" 2>"$log/profile-$ch-$name.err"; then
        bad "cudalab profile $ex: $(cat "$log/profile-$ch-$name.err")"; continue
    fi
    ok "cudalab profile $ex"
    # the table as the student sees it, for the closing note (one per chapter)
    case $ex in divergence/evenodd | reduction/unroll-warps8) "$bin" profile "$ex" "$sol" | tee "$log/profile-$ch-$name.txt" ;; esac
    read -r kernel metrics size block unroll per_sm < <(python3 -c '
import json,sys; d=json.load(open(sys.argv[1])); s=[k for k in d["kernels"] if k["role"]=="student"][0]
opt={a.split("=",1)[0]: a.split("=",1)[1] for a in d["command"] if a.startswith("--") and "=" in a}
print(s["kernel"], ",".join(m["ncu"] for m in s["metrics"]), opt["--sizes"].split(",")[0],
      opt["--block"], opt.get("--unroll", "1"), opt.get("--grid-per-sm", "0"))' "$log/profile-$ch-$name.json")
    "$bin" inspect "$ex" "$sol" --json --summary >"$tmp/i.json"
    mangled=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["kernel"]["mangled"])' "$tmp/i.json")
    case $mangled in
        *PiS_j) sig=REDUCE_INT ;;
        *PKfPfj) sig=REDUCE_FLOAT ;;
        *PKiPij) sig=SHUFFLE ;;
        *PK6RecordPKiS3_S3_Pij) sig=RECORDS ;;
        *Pf) sig=MATH ;;
        *) bad "$ex: no by-hand harness for $mangled"; continue ;;
    esac
    "$nvcc" -O3 -arch="$arch" -include "$sol" -DKERNEL="$kernel" -D$sig -DN="$size" -DBLOCK="$block" \
        -DUNROLL="$unroll" -DGRID_PER_SM="$per_sm" -o "$tmp/by-hand" "$root/tests/gpu/ncu-by-hand.cu" ||
        { bad "by-hand build of $kernel"; continue; }
    cmd=("$ncu" --clock-control none --csv --page raw --print-kernel-base function --metrics "$metrics" -k "$kernel" "$tmp/by-hand")
    echo "     by hand: ${cmd[*]}  (n $size, block $block, unroll $unroll, grid/SM $per_sm)"
    "${cmd[@]}" >"$log/ncu-by-hand-$ch-$name.csv" 2>&1
    if python3 - "$log/profile-$ch-$name.json" "$log/ncu-by-hand-$ch-$name.csv" <<'PY'; then ok "$ex: cudalab profile agrees with ncu by hand"; else bad "$ex: cudalab profile and ncu by hand differ"; fi
import csv, json, sys
prof = json.load(open(sys.argv[1]))
lab = {m["ncu"]: m["value"] for k in prof["kernels"] if k["role"] == "student" for m in k["metrics"]}
lines = open(sys.argv[2]).read().splitlines()
start = next((i for i, l in enumerate(lines) if l.startswith('"ID","Process ID"')), None)
if start is None:
    print("     ncu by hand printed no CSV:", *lines[-5:], sep="\n     ")
    sys.exit(1)
rows = list(csv.reader(lines[start:]))
head, data = rows[0], [r for r in rows[1:] if r and r[0]]
hand = {h: data[-1][i].replace(",", "") for i, h in enumerate(head)}
bad = compared = 0
for metric in ("smsp__average_inst_executed_per_warp.ratio",
               "smsp__sass_average_branch_targets_threads_uniform.pct",
               "smsp__thread_inst_executed_per_inst_executed.ratio",
               "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",
               "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio"):
    if metric not in lab or metric not in hand or hand[metric] in ("", "n/a"):
        continue
    a, b = lab[metric], float(hand[metric])
    same = a is not None and abs(a - b) <= 0.02 * max(abs(b), 1e-9) + 1e-6
    print(f"     {metric:66s} lab {a}  by hand {b}  {'same' if same else 'DIFFERENT'}")
    bad += not same
    compared += 1
sys.exit(1 if bad or not compared else 0)
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
