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
# own.  Grades both sets with `cudalab batch`, then prints wall time,
# submissions per minute, CPU time, GPU utilization, how many verdicts match
# the expected ones and whether the `identical` flags are exactly the copies.
# Exit 0 only when every verdict and every identical flag is right.  BATCH_SANDBOX=0 grades without
# bubblewrap; BATCH_PER_STEP (150) and BATCH_JOBS (nproc) change the size.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${CUDALAB_BIN:-$root/bin/cudalab}
out=${1:-$(mktemp -d)}
per_step=${BATCH_PER_STEP:-150}
jobs=${BATCH_JOBS:-$(nproc)}
mkdir -p "$out"
export XDG_DATA_HOME=$out/data XDG_CACHE_HOME=$out/cache

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
    CUDALAB_SANDBOX=on "$bin" grade reduction/neighbored-less \
        "$root/solutions/reduction/neighbored-less.cu" --no-record | tail -2
fi

# the sources and their expected verdicts: "FILE VERDICT" lines
sources() { # EXERCISE-NAME
    local name=$1 f
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
for name in neighbored neighbored-less; do
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
    nvidia-smi --query-gpu=utilization.gpu --format=csv,noheader,nounits -lms 250 \
        >"$out/gpu-util-$name.txt" 2>/dev/null &
    smi=$!
    t0=$(date +%s.%N)
    head -1 /proc/stat >"$out/cpu-$name.txt"
    # the trace's lock marks show how much of the wall time one GPU run at a time held the GPU
    CUDALAB_TRACE=$out/trace-$name.txt "$bin" batch "reduction/$name" "$subs"/*.cu \
        --out "$out/gb-$name" --jobs "$jobs" "${sandbox[@]}" >"$out/batch-$name.log" 2>&1
    rc=$?
    t1=$(date +%s.%N)
    head -1 /proc/stat >>"$out/cpu-$name.txt"
    kill "$smi" 2>/dev/null
    wait "$smi" 2>/dev/null
    tail -2 "$out/batch-$name.log"
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
util = [float(x) for x in open(f"{out}/gpu-util-{name}.txt").read().split() if x.replace('.', '').isdigit()]
# machine-wide CPU time from /proc/stat (user, nice, system, irq, softirq, steal), so that
# the compilers and drivers inside the sandbox count too
import os
a, b = ([int(x) for x in l.split()[1:]] for l in open(f"{out}/cpu-{name}.txt"))
hz = os.sysconf("SC_CLK_TCK")
user = (b[0] + b[1] - a[0] - a[1]) / hz
sys_ = sum(b[i] - a[i] for i in (2, 5, 6, 7)) / hz
wall = t1 - t0
# the GPU's lock: held from "taken" to "given back" (lab/grade/runner.c), one holder at a time
held, taken = 0.0, None
for line in sorted(open(f"{out}/trace-{name}.txt", errors="replace"), key=lambda l: float(l.split()[0])):
    t, what = float(line.split()[0]), line.split(None, 3)[3] if len(line.split()) > 3 else ""
    if what.startswith("the GPU's lock taken"):
        taken = t
    elif what.startswith("the GPU's lock given back") and taken is not None:
        held, taken = held + t - taken, None
print(f"reduction/{name}: {len(want)} submissions in {wall:.1f} s = {60 * len(want) / wall:.1f}/min; "
      f"the GPU's lock held {held:.1f} s ({100 * held / wall:.0f} % of the wall time); "
      f"CPU {user + sys_:.0f} s (user {user:.0f}, sys {sys_:.0f}); "
      f"GPU utilization mean {sum(util) / max(len(util), 1):.0f}% over {len(util)} samples; "
      f"verdicts right {len(want) - len(wrong)}/{len(want)}; "
      f"identical flags {len(flagged)}, on the {len(copies)} planted copies and originals: "
      f"{'all' if not bad_flags else str(len(bad_flags)) + ' wrong'}")
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
