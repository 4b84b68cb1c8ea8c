#!/bin/bash
# tests/gpu/security.sh [LOG-DIR]: the security review's fixes (# 34) on a real GPU, through the
# real binary (bin/cudalab, build/libexec), in the sandbox as a batch runs it:
#  - every exercise's reference solution PASSes in the sandbox (CUDALAB_SANDBOX=on): the CUDA
#    driver works with the allow-list environment, a user of the job's own (as root), the sized
#    /tmp and /dev/shm of lab/platform/limits.def, and host code in a process image of its own;
#  - B1: the occupancy calculator's two cheats (tests/fixtures/hostile/: the answers read from
#    any command line, or from the process's own memory) are WRONG in a sandboxed batch, and the
#    command-line one unsandboxed too;
#  - B7: a grader's SECRET_TOKEN and the seed are out of a sandboxed host function's reach (PASS);
#  - afterwards no driver process is left.
# Logs of every grading go to LOG-DIR (default: a temp dir).  Exit 0 only when every check holds;
# the last line is "N passed, N failed".
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${CUDALAB_BIN:-$root/bin/cudalab}
log=${1:-$(mktemp -d)}
mkdir -p "$log"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_DATA_HOME=$work/data XDG_CACHE_HOME=$work/cache CUDALAB_SANDBOX=on
pass=0 fail=0
check() { # NAME GOT WANT
    if [ "$2" = "$3" ]; then
        pass=$((pass + 1)); printf 'ok   %-44s %s\n' "$1" "$2"
    else
        fail=$((fail + 1)); printf 'FAIL %-44s got %s, want %s\n' "$1" "${2:-nothing}" "$3"
    fi
}
verdict() { # EXERCISE FILE NAME [ENV...]: the verdict of a grading, logged
    local ex=$1 file=$2 name=$3
    shift 3
    env "$@" "$bin" grade "$ex" "$file" --json --no-record >"$log/$name.json" 2>"$log/$name.err"
    python3 -c 'import json, sys; print(json.load(open(sys.argv[1])).get("verdict", ""))' \
        "$log/$name.json" 2>/dev/null
}

if ! "$bin" device >"$log/device.txt" 2>&1; then
    cat "$log/device.txt"; echo "security.sh needs a GPU"; echo "0 passed, 1 failed"; exit 1
fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
if ! bwrap --ro-bind / / --unshare-all --unshare-user --uid 65534 --gid 65534 true 2>/dev/null; then
    echo "security.sh needs bubblewrap (it checks the sandbox)"; echo "0 passed, 1 failed"; exit 1
fi
echo "as uid $(id -u)"

exercises=$("$bin" list --json | python3 -c 'import json,sys; [print(e["id"]) for e in json.load(sys.stdin)["exercises"]]')
for ex in $exercises; do
    name=${ex//\//-}
    check "sandboxed reference: $ex" "$(verdict "$ex" "$root/solutions/$ex.cu" "$name")" PASS
done

hostile=$root/tests/fixtures/hostile
mkdir -p "$work/b1"
cp "$hostile/occupancy-cmdline.cu" "$work/b1/cmdline.cu"
cp "$hostile/occupancy-memory.cu" "$work/b1/memory.cu"
"$bin" batch occupancy/calculator "$work/b1"/*.cu --out "$log/b1" >"$log/b1.log" 2>&1
check "B1: sandboxed batch of the two cheats (exit)" "$?" 0
check "B1: their verdicts" "$(python3 -c 'import csv, sys
print(" ".join(r["student"] + "=" + r["verdict"] for r in sorted(csv.DictReader(open(sys.argv[1], newline="")), key=lambda r: r["student"])))' "$log/b1/gradebook.csv" 2>/dev/null)" \
    "cmdline=WRONG memory=WRONG"
check "B1: the command-line cheat unsandboxed" \
    "$(verdict occupancy/calculator "$work/b1/cmdline.cu" b1-unsandboxed CUDALAB_SANDBOX=off)" WRONG
check "B7: SECRET_TOKEN and the seed out of reach" \
    "$(verdict reduction/recursive "$hostile/recursive-peek.cu" b7 SECRET_TOKEN=hunter2)" PASS

sleep 1
check "no driver process left" "$(pgrep -c -f -- "$root/build/libexec/cudalab/cudalab-driver" || true)" 0
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
