#!/bin/bash
# tests/gpu/batch-scale.sh OUT [COUNT...]: how `cudalab batch` scales with the GPUs of a node
# (issue 35 on 2 GPUs, issue 38 on 4 and 8), in one call of under 10 minutes on an
# nvidia-h200-x2 or -x4.  COUNT: the numbers of GPUs to grade with (default 1, 2, 4, 8 up to
# what the node has, and the node's own number); each run uses GPUs 0..COUNT-1
# (CUDA_VISIBLE_DEVICES).  Runs, sandboxed (where bubblewrap runs; BATCH_SANDBOX=0: not):
#   1. tests/gpu/batch-300.sh with each COUNT, each from a fresh cache (every submission really
#      compiled): the rate, 300/300 verdicts right, the `identical` flags exactly the copies,
#      each GPU's utilization (nvidia-smi, each second) and how long its lock was held, the CPU's
#      busy share, and which bound the run hits: the GPUs (their locks held most of the time) or
#      the CPU cores (busy most of the time);
#   2. identical GPUs, identical verdicts: the same 300 graded again on each other GPU alone, all
#      at once (the first run's compiled files reused), each submission's verdict compared with
#      GPU 0's;
#   3. a generated class of 1000 (500 per exercise) on every GPU of the node: under 2.5 min,
#      every verdict right;
#   4. kill -9 of a batch on every GPU half-way, then a rerun: the results kept untouched,
#      the rerun grades only the others, every submission once in the gradebook, every verdict
#      right, no grader or driver left.
# Writes OUT/batch-scale.md (the table and each check's line), OUT/batch-scale.log (everything
# the runs printed) and OUT/batch-scale-files.tar.gz (the gradebooks, the runs' summaries and
# logs, nvidia-smi's samples, the traces); the work goes to BATCH_SCALE_WORK (default a fresh
# folder in /tmp).  BATCH_SCALE_PARTS chooses the parts (default "scale same class kill");
# BATCH_SCALE_CLASS the class's size (1000), BATCH_PER_STEP the scale runs' (150 per exercise).
# BATCH_PRETEND=N runs it all on a pretend node of N GPUs (tests/gpu/batch-300.sh says how): a
# test of the script on a machine without a GPU, whose numbers measure nothing.
# Exit 0 only when every check holds.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${CUDALAB_BIN:-$root/bin/cudalab}
out=${1:?usage: batch-scale.sh OUT [COUNT...]}
shift
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=${BATCH_SCALE_WORK:-$(mktemp -d /tmp/batch-scale.XXXXXX)}
mkdir -p "$work"
parts=" ${BATCH_SCALE_PARTS:-scale same class kill} "
md=$out/batch-scale.md
log=$out/batch-scale.log
: >"$md"
: >"$log"
ok=1
say() { echo "$*" | tee -a "$log"; }
checks=$out/.checks # a part's checks, written below its table
: >"$checks"
check() { # NAME CONDITION-STATUS [DETAIL]
    if [ "$2" -eq 0 ]; then say "ok   $1${3:+: $3}"; echo "- ok: $1${3:+: $3}" >>"$checks"
    else say "FAIL $1${3:+: $3}"; echo "- **FAIL**: $1${3:+: $3}" >>"$checks"; ok=0; fi
}
flush_checks() { cat "$checks" >>"$md"; : >"$checks"; }

ngpus=${BATCH_PRETEND:-$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')}
class=${BATCH_SCALE_CLASS:-1000}
if [ "$ngpus" -lt 1 ]; then
    say "batch-scale needs a GPU: nvidia-smi lists none"
    exit 1
fi
counts=("$@")
if [ ${#counts[@]} -eq 0 ]; then
    for k in 1 2 4 8; do [ "$k" -le "$ngpus" ] && counts+=("$k"); done
    [[ " ${counts[*]} " == *" $ngpus "* ]] || counts+=("$ngpus")
fi
all=$(seq -s, 0 $((ngpus - 1)))
missing=$(ldd "$bin" "$root/build/libexec/cudalab/cudalab-driver" 2>&1 | grep 'not found')
if [ -n "$missing" ]; then
    say "the lab cannot start here (carry these and put their folder on LD_LIBRARY_PATH):"
    say "$missing"
    exit 1
fi
if [ -n "${BATCH_PRETEND:-}" ]; then
    gpu_line="a pretend node of $ngpus GPUs (BATCH_PRETEND: the stand-in libcuda; nothing measured)"
else
    gpu_line="$(nvidia-smi --query-gpu=name --format=csv,noheader | sort | uniq -c | sed 's/^ *//' | paste -sd';'), driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)"
    nvidia-smi -L >>"$log"
fi
{
    echo "# cudalab batch over the GPUs of one node"
    echo
    echo "$(date -u +%Y-%m-%dT%H:%MZ), $gpu_line, $(nproc) cores, $(nvcc --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\).*/nvcc \1/p'), LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"
    echo
} >>"$md"

# run NAME VISIBLE [ENV...]: batch-300.sh on GPUs VISIBLE into $work/NAME, its lines logged
run300() {
    local name=$1 visible=$2
    shift 2
    say "--- $name: CUDA_VISIBLE_DEVICES=$visible $*"
    env CUDA_VISIBLE_DEVICES="$visible" "$@" "$root/tests/gpu/batch-300.sh" "$work/$name" \
        >"$work/$name.log" 2>&1
    local rc=$?
    grep -v '^\[' "$work/$name.log" | tee -a "$log" | tail -4
    return $rc
}

# stats NAME: "submissions wall rate right identical_ok cpu_busy% lock_mean% util_mean% bound"
stats() {
    python3 - "$work/$1" <<'PY'
import glob, json, sys
runs = [json.load(open(f)) for f in sorted(glob.glob(sys.argv[1] + "/summary-*.json"))]
n = sum(r["submissions"] for r in runs)
wall = sum(r["wall_s"] for r in runs)
right = sum(r["right"] for r in runs)
ident = all(r["identical_ok"] for r in runs)
cpu = sum(r["cpu_s"] for r in runs) / (wall * runs[0]["cores"])
gpus = {}
for r in runs:
    for g, v in r["gpus"].items():
        a = gpus.setdefault(g, {"held_s": 0, "timed": 0, "util": [], "w": 0})
        a["held_s"] += v["held_s"]; a["timed"] += v["timed"]
        a["util"].append((v["util_mean"], r["wall_s"]))
lock = sum(a["held_s"] for a in gpus.values()) / (wall * max(len(gpus), 1))
util = sum(u * w for a in gpus.values() for u, w in a["util"]) / (wall * max(len(gpus), 1))
bound = ("the GPUs" if lock >= 0.8 else "the CPU cores" if cpu >= 0.8
         else "neither (graders in flight: try more --jobs)")
share = " ".join(f"{a['timed']}" for g, a in sorted(gpus.items()))
print(n, f"{wall:.1f}", f"{60 * n / wall:.1f}", right, int(ident), f"{100 * cpu:.0f}",
      f"{100 * lock:.0f}", f"{100 * util:.0f}", len(gpus), share.replace(" ", "/") or "-", bound)
PY
}

# --- 1. the rate with 1, 2, 4 ... GPUs ----------------------------------------------------------
declare -A rate bound_of
if [[ $parts == *" scale "* ]]; then
    echo "| GPUs | submissions | wall | rate | x one GPU | verdicts right | identical flags | timed per GPU | GPU locks held | GPU utilization | CPU busy | bound |" >>"$md"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|" >>"$md"
    rows=()
    for k in "${counts[@]}"; do
        run300 "gpus-$k" "$(seq -s, 0 $((k - 1)))"
        rc=$?
        read -r n wall r right ident cpu lock util used share bound <<<"$(stats "gpus-$k")"
        rate[$k]=$r
        bound_of[$k]=$bound
        x=$(python3 -c "print(f'{$r / ${rate[${counts[0]}]}:.2f}')")
        rows+=("| $k | $n | $wall s | $r / min | ${x}x | $right / $n | $([ "$ident" = 1 ] && echo exact || echo WRONG) | $share | $lock % | $util % | $cpu % | $bound |")
        check "$k GPU(s): every verdict right and the identical flags exact" \
            $([ $rc -eq 0 ] && [ "$right" = "$n" ] && [ "$ident" = 1 ] && echo 0 || echo 1) \
            "$right/$n, $r/min, bound by $bound"
        [ "$used" -eq "$k" ]
        check "$k GPU(s): every GPU timed submissions" $? "$share"
    done
    printf '%s\n' "${rows[@]}" >>"$md"
    echo >>"$md"
    base=${counts[0]}
    for k in "${counts[@]}"; do
        [ "$k" -gt "$base" ] || continue
        x=$(python3 -c "print(f'{${rate[$k]} / ${rate[$base]}:.2f}')")
        if [ "$k" -eq 2 ] && [ "$base" -eq 1 ]; then
            python3 -c "import sys; sys.exit(0 if $x >= 1.9 else 1)"
            check "2 GPUs: at least 1.9 x the rate of one (issue 35)" $? "${x}x"
        fi
        # issue 38: 0.9 x linear, until the CPU cores bound the rate
        if python3 -c "import sys; sys.exit(0 if $x >= 0.9 * $k / $base else 1)"; then
            check "$k GPUs: at least 0.9 x linear (issue 38)" 0 "${x}x of $base GPU(s)"
        elif [ "${bound_of[$k]}" = "the CPU cores" ]; then
            check "$k GPUs: below 0.9 x linear, bound by the CPU cores (issue 38)" 0 "${x}x of $base GPU(s)"
        else
            check "$k GPUs: at least 0.9 x linear (issue 38), or bound by the CPU cores" 1 \
                "${x}x of $base GPU(s), bound by ${bound_of[$k]}"
        fi
    done
    flush_checks
fi

# --- 2. identical GPUs, identical verdicts -------------------------------------------------------
if [[ $parts == *" same "* ]] && { [ "$ngpus" -lt 2 ] || [ ! -d "$work/gpus-1/cache" ]; }; then
    check "identical GPUs: needs two GPUs and the run on one (COUNT 1)" 1
elif [[ $parts == *" same "* ]]; then
    pids=()
    for i in $(seq 1 $((ngpus - 1))); do
        run300 "same-$i" "$i" BATCH_CACHE="$work/gpus-1/cache" &
        pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p"; done
    for i in $(seq 1 $((ngpus - 1))); do
        same=$(python3 - "$work/gpus-1" "$work/same-$i" <<'PY'
import glob, json, sys
def verdicts(d):
    v = {}
    for f in glob.glob(d + "/summary-*.json"):
        v.update(json.load(open(f))["verdicts"])
    return v
a, b = verdicts(sys.argv[1]), verdicts(sys.argv[2])
diff = sorted(s for s in a if a[s] != b.get(s))
print(f"{len(a) - len(diff)}/{len(a)} the same" + "".join(f"; {s}: {a[s]} on GPU 0, {b.get(s)} here" for s in diff[:5]))
sys.exit(1 if diff or len(a) != len(b) else 0)
PY
)
        check "identical GPUs: the class on GPU $i alone gets GPU 0's verdicts" $? "$same"
    done
fi
flush_checks

# --- 3. a class of 1000 on every GPU ------------------------------------------------------------
if [[ $parts == *" class "* ]]; then
    nex=$(wc -w <<<"${BATCH_EXERCISES:-$([ -n "${BATCH_PRETEND:-}" ] && echo 1 || echo 2)}")
    run300 class "$all" BATCH_PER_STEP=$((class / nex))
    rc=$?
    read -r n wall r right ident cpu lock util used share bound <<<"$(stats class)"
    echo "A class of $n on $ngpus GPUs: $wall s ($r / min), $right / $n right, timed per GPU $share, GPU locks held $lock %, CPU busy $cpu %: bound by $bound." >>"$md"
    python3 -c "import sys; sys.exit(0 if $wall < 150 else 1)"
    fast=$?
    check "a class of $class on $ngpus GPUs in under 2.5 minutes, every verdict right" \
        $([ $fast -eq 0 ] && [ $rc -eq 0 ] && [ "$right" = "$n" ] && [ "$n" -eq "$class" ] && echo 0 || echo 1) \
        "$n in $wall s, $right right"
fi
flush_checks

# --- 4. kill -9 half-way, then a rerun --------------------------------------------------------------
if [[ $parts == *" kill "* ]]; then
    src=$(ls -d "$work"/gpus-*/subs-* 2>/dev/null | tail -1)
    if [ -z "$src" ]; then
        run300 kill-subs "$all" >/dev/null
        src=$(ls -d "$work"/kill-subs/subs-* | tail -1)
    fi
    name=${src##*/subs-}
    expect=$(dirname "$src")/expected-$name.csv
    total=$(ls "$src"/*.cu | wc -l)
    k=$work/kill
    rm -rf "$k"
    mkdir -p "$k"
    sandbox=()
    [ "${BATCH_SANDBOX:-1}" = 0 ] && sandbox=(--no-sandbox)
    say "--- kill: $total submissions on GPUs $all, kill -9 at half"
    (
        export XDG_DATA_HOME=$k/data XDG_CACHE_HOME=$k/cache CUDA_VISIBLE_DEVICES=$all
        if [ -n "${BATCH_PRETEND:-}" ]; then # the pretend node batch-300.sh made beside the class
            export CUDALAB_DATADIR=$(dirname "$src")/data FAKECUDA_LAUNCH_US=${FAKECUDA_LAUNCH_US:-2000}
            export LD_LIBRARY_PATH=$(dirname "$src")/fake${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
        fi
        "$bin" batch "reduction/$name" "$src"/*.cu --out "$k/gb" "${sandbox[@]}" \
            >"$k/first.log" 2>&1 &
        pid=$!
        for _ in $(seq 3000); do
            [ "$(ls "$k/gb/results" 2>/dev/null | wc -l)" -ge $((total / 2)) ] && break
            sleep 0.1
        done
        kill -KILL $pid
        wait $pid 2>/dev/null
        sleep 1
        pgrep -f "$k/" >"$k/left.txt"
        ls "$k/gb/results" | wc -l >"$k/kept.txt"
        md5sum "$k"/gb/results/*.json >"$k/kept.md5"
        "$bin" batch "reduction/$name" "$src"/*.cu --out "$k/gb" "${sandbox[@]}" \
            >"$k/rerun.log" 2>&1
        echo $? >"$k/rerun.rc"
    )
    kept=$(cat "$k/kept.txt")
    grep -v '^\[' "$k/rerun.log" | tee -a "$log" >/dev/null
    [ ! -s "$k/left.txt" ]
    check "kill -9 half-way: no grader or driver left" $? "$(wc -l <"$k/left.txt") left"
    grep -q "^graded $((total - kept)), skipped $kept (already graded)" "$k/rerun.log" &&
        [ "$(cat "$k/rerun.rc")" = 0 ]
    check "kill -9 half-way: the rerun grades only the $((total - kept)) not graded ($kept kept)" $? \
        "$(grep '^graded' "$k/rerun.log")"
    md5sum -c --quiet "$k/kept.md5" >/dev/null 2>&1
    check "kill -9 half-way: the $kept results kept are untouched" $?
    python3 - "$k/gb/gradebook.csv" "$expect" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
want = dict(l.strip().split(",") for l in open(sys.argv[2]))
ids = [r["student"] for r in rows]
assert len(ids) == len(set(ids)) == len(want), (len(ids), len(set(ids)), len(want))
bad = [(r["student"], r["verdict"], want[r["student"]]) for r in rows if r["verdict"] != want[r["student"]]]
assert not bad, bad[:5]
PY
    check "kill -9 half-way: every submission once in the gradebook, every verdict right" $?
fi
flush_checks
rm -f "$checks"

echo >>"$md"
[ $ok = 1 ] && say "batch-scale: every check holds" || say "batch-scale: a check failed"
echo "$([ $ok = 1 ] && echo '**every check holds**' || echo '**a check failed**')" >>"$md"
# what comes back: the gradebooks, summaries, logs, nvidia-smi's samples, the traces
(cd "$work" && find . -maxdepth 2 \( -name 'summary-*' -o -name '*.log' -o -name 'gpu-util-*' \
    -o -name 'trace-*' -o -name 'expected-*' -o -path '*/kill/*.txt' \) -print;
    find . -path '*/gb*/gradebook.csv') | sort -u |
    tar -C "$work" -czf "$out/batch-scale-files.tar.gz" -T - 2>/dev/null
cat "$md"
[ $ok = 1 ]
