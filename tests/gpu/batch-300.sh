#!/bin/bash
# tests/gpu/batch-300.sh [OUT]: the batch benchmark of docs/bench/batch.md on
# a GPU machine.  Generates 300 submissions -- 150 for each of
# reduction/neighbored and reduction/neighbored-less -- from the exercises'
# example submissions (ok, wrong, cheat: each names its expected verdict on its
# first line) and the untouched starters (neighbored: WRONG, neighbored-less:
# SLOW, as recorded on the H100 in tests/fixtures/reports).  Each is made
# unique by a line of code naming its student (#define STUDENT "s001-..."),
# not by a comment: the identical-submission flag compares code with comments
# and blanks taken out, and must mark only real copies -- every 30th
# submission is one, the one before it re-indented under a comment of its
# own.  Grades both sets with `cudalab batch` (over every GPU it sees:
# CUDA_VISIBLE_DEVICES chooses), then prints wall time, submissions per minute,
# CPU time, each GPU's utilization (nvidia-smi, every second) and how long its
# lock was held, how many verdicts match the expected ones and whether the
# `identical` flags are exactly the copies; OUT/summary.json holds the same
# for tests/gpu/batch-scale.sh.  Exit 0 only when every verdict and every
# identical flag is right.  BATCH_SANDBOX=0 grades without bubblewrap;
# BATCH_PER_STEP (150), BATCH_JOBS (nproc) and BATCH_EXERCISES ("neighbored
# neighbored-less") change the size; BATCH_GPUS is passed as --gpus; BATCH_CACHE names the
# cache folder to use (default OUT/cache, a fresh one: every submission compiled).
# BATCH_PRETEND=N grades on a pretend node of N GPUs instead (no GPU needed: the stand-in libcuda
# of tests/fakecuda, reduction/sum-atomic at small sizes, submissions that pass, are slow or
# wrong on it): a test of this script and of batch-scale.sh, not a measurement.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${CUDALAB_BIN:-$root/bin/cudalab}
out=${1:-$(mktemp -d)}
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 1
per_step=${BATCH_PER_STEP:-150}
jobs=${BATCH_JOBS:-$(nproc)}
exercises=${BATCH_EXERCISES:-neighbored neighbored-less}
datadir=${CUDALAB_DATADIR:-$root}
if [ -n "${BATCH_PRETEND:-}" ]; then
    # the pretend node: the stand-in libcuda with BATCH_PRETEND GPUs, which reads how each kernel
    # behaves from a line of its source (tests/fakecuda/fakecuda.c)
    exercises=${BATCH_EXERCISES:-sum-atomic}
    datadir=$out/data
    . "$root/tests/fakecuda/node.sh"
    fakecuda_node "$root" "$BATCH_PRETEND" "$out" || exit 1
    mkdir -p "$out/src"
    fakecuda_source devsum 4000 >"$out/src/pass.cu"
    fakecuda_source devsum 100000 >"$out/src/slow.cu"
    fakecuda_source racy 4000 >"$out/src/wrong.cu"
    export CUDALAB_DATADIR=$datadir LD_LIBRARY_PATH=$out/fake${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    export FAKECUDA_LAUNCH_US=${FAKECUDA_LAUNCH_US:-2000}
fi
gpus=()
[ -n "${BATCH_GPUS:-}" ] && gpus=(--gpus "$BATCH_GPUS")
# BATCH_CACHE: another run's cache (its compiled submissions), for grading the same class again
export XDG_DATA_HOME=$out/data XDG_CACHE_HOME=${BATCH_CACHE:-$out/cache}

sandbox=()
if [ "${BATCH_SANDBOX:-1}" = 0 ]; then
    echo "NOTE: BATCH_SANDBOX=0: grading with --no-sandbox"
    sandbox=(--no-sandbox)
elif ! bwrap --ro-bind / / --dev /dev --proc /proc --unshare-all --unshare-user --uid 65534 \
    --gid 65534 --die-with-parent true 2>/dev/null; then
    echo "NOTE: bubblewrap cannot run here: grading with --no-sandbox"
    sandbox=(--no-sandbox)
fi
"$bin" device || { echo "batch-300 needs a GPU"; exit 1; }
if [ ${#sandbox[@]} -eq 0 ]; then
    # pre-flight: the GPU inside the sandbox
    first=${exercises%% *}
    CUDALAB_SANDBOX=on "$bin" grade "reduction/$first" \
        "$datadir/solutions/reduction/$first.cu" --no-record | tail -2
fi

# the sources and their expected verdicts: "FILE VERDICT" lines
sources() { # EXERCISE-NAME
    local name=$1 f
    if [ -n "${BATCH_PRETEND:-}" ]; then
        printf '%s\n' "$out/src/pass.cu PASS" "$out/src/slow.cu SLOW" "$out/src/wrong.cu WRONG"
        return
    fi
    for f in "$root/exercises/reduction/$name"/examples/*/*.cu; do
        echo "$f $(sed -n '1s/.*expect: *\([A-Z_]*\).*/\1/p' "$f")"
    done
    echo "$root/solutions/reduction/$name.cu PASS"
    case $name in
    neighbored) echo "$root/exercises/reduction/$name/starter.cu WRONG" ;;
    neighbored-less) echo "$root/exercises/reduction/$name/starter.cu SLOW" ;;
    esac
}

total=0 right=0 wall_all=0
for name in $exercises; do
    subs=$out/subs-$name
    rm -rf "$subs" "$out/gb-$name"
    mkdir -p "$subs"
    mapfile -t src < <(sources "$name")
    : >"$out/expected-$name.csv"
    : >"$out/copies-$name.txt"
    prev=
    for i in $(seq 1 "$per_step"); do
        if [ $((i % 30)) -eq 0 ] && [ -n "$prev" ]; then
            # a real copy: the previous student's code, re-indented, with a comment of its own
            id=$(printf 's%03d-copy-of-%s' "$i" "${prev%%,*}")
            { echo "// my own work"; sed 's/^/  /' "$subs/${prev%%,*}.cu"; } >"$subs/$id.cu"
            echo "$id,${prev#*,}" >>"$out/expected-$name.csv"
            printf '%s\n%s\n' "${prev%%,*}" "$id" >>"$out/copies-$name.txt"
            continue
        fi
        read -r f want <<<"${src[$(((i - 1) % ${#src[@]}))]}"
        id=$(printf 's%03d-%s' "$i" "$(basename "$(dirname "$f")")-$(basename "$f" .cu)")
        { cat "$f"; printf '\n#define STUDENT "%s"\n' "$id"; } >"$subs/$id.cu"
        echo "$id,$want" >>"$out/expected-$name.csv"
        prev="$id,$want"
    done
    nvidia-smi --query-gpu=index,uuid,utilization.gpu --format=csv,noheader,nounits -l 1 \
        >"$out/gpu-util-$name.txt" 2>/dev/null &
    smi=$!
    t0=$(date +%s.%N)
    head -1 /proc/stat >"$out/cpu-$name.txt"
    # the trace's lock marks show how much of the wall time one GPU run at a time held the GPU
    CUDALAB_TRACE=$out/trace-$name.txt "$bin" batch "reduction/$name" "$subs"/*.cu \
        --out "$out/gb-$name" --jobs "$jobs" "${sandbox[@]}" "${gpus[@]}" >"$out/batch-$name.log" 2>&1
    rc=$?
    t1=$(date +%s.%N)
    head -1 /proc/stat >>"$out/cpu-$name.txt"
    kill "$smi" 2>/dev/null
    wait "$smi" 2>/dev/null
    grep -v '^\[' "$out/batch-$name.log" | tail -8
    [ $rc -eq 0 ] || { echo "batch failed (rc $rc), see $out/batch-$name.log"; exit 1; }
    python3 - "$out" "$name" "$t0" "$t1" <<'PY'
import csv, sys
out, name, t0, t1 = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
want = dict(l.strip().split(",") for l in open(f"{out}/expected-{name}.csv"))
got = {r["student"]: r for r in csv.DictReader(open(f"{out}/gb-{name}/gradebook.csv", newline=""))}
wrong = [(s, w, got.get(s, {}).get("verdict")) for s, w in sorted(want.items())
         if got.get(s, {}).get("verdict") != w]
# the identical flag: on the planted copies and their originals, nowhere else
copies = set(open(f"{out}/copies-{name}.txt").read().split())
flagged = {s for s, r in got.items() if "identical" in r["flags"].split(";")}
bad_flags = sorted(flagged ^ copies)
# nvidia-smi's samples: "index, uuid, utilization" each second, per GPU
util = {}
for line in open(f"{out}/gpu-util-{name}.txt", errors="replace"):
    f = [x.strip() for x in line.split(",")]
    if len(f) == 3 and f[2].replace(".", "").isdigit():
        util.setdefault(f[1], []).append(float(f[2]))
# machine-wide CPU time from /proc/stat (user, nice, system, irq, softirq, steal), so that
# the compilers and drivers inside the sandbox count too
import json, os
a, b = ([int(x) for x in l.split()[1:]] for l in open(f"{out}/cpu-{name}.txt"))
hz = os.sysconf("SC_CLK_TCK")
user = (b[0] + b[1] - a[0] - a[1]) / hz
sys_ = sum(b[i] - a[i] for i in (2, 5, 6, 7)) / hz
wall = t1 - t0
cores = os.cpu_count()
# each GPU's lock: held from "taken: go (UUID)" to "given back", by one grader (one pid) at a
# time (lab/grade/runner.c)
held, taken = {}, {}
for line in sorted(open(f"{out}/trace-{name}.txt", errors="replace"), key=lambda l: float(l.split()[0])):
    parts = line.split(None, 3)
    if len(parts) < 4:
        continue
    t, pid, what = float(parts[0]), parts[1], parts[3].strip()
    if what.startswith("the GPU's lock taken"):
        taken[pid] = (t, what.rsplit("(", 1)[-1].rstrip(")") if "(" in what else "the GPU")
    elif what.startswith("the GPU's lock given back") and pid in taken:
        t0_, gpu = taken.pop(pid)
        held[gpu] = held.get(gpu, 0.0) + t - t0_
timed = {}
for r in got.values():
    if r.get("gpu_uuid"):
        timed[r["gpu_uuid"]] = timed.get(r["gpu_uuid"], 0) + 1
gpus = sorted(set(held) | set(timed))
per_gpu = "; ".join(
    f"{g}: timed {timed.get(g, 0)}, lock held {held.get(g, 0):.1f} s ({100 * held.get(g, 0) / wall:.0f} %), "
    f"utilization {sum(util.get(g, [0])) / max(len(util.get(g, [])), 1):.0f} % mean"
    for g in gpus)
print(f"reduction/{name}: {len(want)} submissions in {wall:.1f} s = {60 * len(want) / wall:.1f}/min; "
      f"CPU {user + sys_:.0f} s (user {user:.0f}, sys {sys_:.0f}; {100 * (user + sys_) / (wall * cores):.0f} % of {cores} cores); "
      f"GPUs: {per_gpu or 'none'}; "
      f"verdicts right {len(want) - len(wrong)}/{len(want)}; "
      f"identical flags {len(flagged)}, on the {len(copies)} planted copies and originals: "
      f"{'all' if not bad_flags else str(len(bad_flags)) + ' wrong'}")
json.dump({"exercise": f"reduction/{name}", "submissions": len(want), "wall_s": wall,
           "right": len(want) - len(wrong), "identical_ok": not bad_flags,
           "cpu_s": user + sys_, "cores": cores,
           "gpus": {g: {"timed": timed.get(g, 0), "held_s": held.get(g, 0.0),
                        "util_mean": sum(util.get(g, [0])) / max(len(util.get(g, [])), 1),
                        "util_samples": len(util.get(g, []))} for g in gpus},
           "verdicts": {s: r["verdict"] for s, r in got.items()}},
          open(f"{out}/summary-{name}.json", "w"))
for s, w, g in wrong[:20]:
    print(f"  WRONG VERDICT {s}: want {w}, got {g}")
for s in bad_flags[:20]:
    print(f"  WRONG FLAG {s}: {'a copy, not flagged identical' if s in copies else 'flagged identical, not a copy'}")
# a submission counts as right when its verdict and its identical flag are
open(f"{out}/summary-{name}.txt", "w").write(
    f"{len(want)} {len(want) - len({s for s, _, _ in wrong} | set(bad_flags))} {wall}\n")
PY
    read -r n ok wall <"$out/summary-$name.txt"
    total=$((total + n)) right=$((right + ok))
    wall_all=$(python3 -c "print($wall_all + $wall)")
done
python3 -c "print(f'all: $total submissions in {$wall_all:.1f} s = {60 * $total / $wall_all:.1f}/min, verdicts right $right/$total')"
echo "files: $out"
[ "$right" -eq "$total" ]
