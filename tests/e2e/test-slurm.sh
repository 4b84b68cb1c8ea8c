#!/bin/bash
# e2e-timeout: 300
# cudalab batch --slurm against a real single-node Slurm started here
# (tests/slurm/slurm-local.sh: munged, slurmctld, slurmd, two fake GPUs):
# an array of 4 tasks and a dependent merge job whose gradebook must equal a
# local batch's of the same submissions; and, on the stand-in libcuda's two
# pretend GPUs, tasks given --gres gpu:2 that each time on both.  Skipped, saying so, only where the
# Slurm packages are not installed (make deps installs them).
set -u
. "$(dirname "$0")/lib.sh"

PATH=$PATH:/usr/sbin:/sbin
for c in sbatch squeue scontrol slurmctld slurmd munged mungekey; do
    if ! command -v $c >/dev/null; then
        echo "SKIP: Slurm is not installed ($c missing): apt-get install slurmctld slurmd slurm-client munge"
        e2e_finish
        exit 0
    fi
done

less=reduction/neighbored-less
ex=$CUDALAB_DATADIR_TEST/exercises/reduction/neighbored-less
. "$(dirname "$0")/fake-gpu.sh"
export CUDALAB_LIBEXECDIR=$CUDALAB_LIBEXECDIR_TEST # the real probe: no GPU here
unset CUDALAB_ARCH
sandbox=()
bwrap_usable || sandbox=(--no-sandbox)

# the examples, the starter and the solution: each verdict the lab gives without a GPU
mkdir -p subs
n=0
for f in "$ex"/examples/*/*.cu "$ex/starter.cu" "$CUDALAB_DATADIR_TEST/solutions/$less.cu"; do
    n=$((n + 1))
    cp "$f" "subs/s$n-${f##*/}"
    [ $n -eq 8 ] && break
done
[ "$n" -eq 8 ]
check "slurm: $n submissions from the examples" $?

SLURM_TMP=$T/slurm
stop_cluster() {
    SLURM_LOCAL_INSTALL=0 "$E2E_SRC/tests/slurm/slurm-local.sh" stop "$SLURM_TMP" >/dev/null 2>&1
}
trap stop_cluster EXIT
if ! env=$(SLURM_LOCAL_INSTALL=0 "$E2E_SRC/tests/slurm/slurm-local.sh" start "$SLURM_TMP" 2>"$T/slurm-start.err"); then
    fail "slurm: the local cluster starts" "$(tail -20 "$T/slurm-start.err" | indent)"
    e2e_finish
    exit 0
fi
eval "$env"
pass "slurm: the local cluster starts"

run cudalab batch $less subs/* --out gs --slurm --chunk 2 --gres gpu:1 --dry-run "${sandbox[@]}"
expect_status "--dry-run: ok" 0
expect_out "--dry-run: an array of 4 tasks" "#SBATCH --array=0-3"
expect_out "--dry-run: one GPU per task" "#SBATCH --gres=gpu:1"
expect_out "--dry-run: the merge job" "gradebook merge --out"
[ -z "$(squeue -h 2>/dev/null)" ]
check "--dry-run: nothing submitted" $?

run cudalab batch $less subs/* --out gs --slurm --chunk 2 --gres gpu:1 --wait "${sandbox[@]}"
expect_status "--slurm --wait: ok" 0
expect_out_re "--slurm: array and merge job submitted" '^submitted array job [0-9]+ \(4 tasks\) and merge job [0-9]+$'
array=$(sed -n 's/^submitted array job \([0-9]*\).*/\1/p' <<<"$OUT")
[ "$(scontrol show job "$array" | grep -c 'JobState=COMPLETED')" -eq 4 ]
check "--slurm: the 4 array tasks completed (scontrol show job $array)" $?
grep -q 'Name=cudalab-merge JobState=COMPLETED' "$SLURM_TMP/log/jobcomp.txt"
check "--slurm: the merge job completed (jobcomp)" $?
[ -d gs/parts/0 ] && [ -d gs/parts/3 ] && [ ! -d gs/parts/4 ]
check "--slurm: one result folder per task" $?

run cudalab batch $less subs/* --out gl "${sandbox[@]}"
expect_status "local batch of the same submissions: ok" 0
expect_eq "--slurm: the merged gradebook equals the local batch's" \
    "$(cat gs/gradebook.csv)" "$(cat gl/gradebook.csv)"
[ "$(($(wc -l <gs/gradebook.csv) - 1))" -eq "$n" ]
check "--slurm: every submission in the merged gradebook" $?

# a bad request: more GPUs than the node has
run cudalab batch $less subs/* --out gbad --slurm --gres gpu:3 "${sandbox[@]}"
expect_status "--slurm --gres gpu:3: sbatch's refusal is an error" 2
expect_err "--slurm --gres gpu:3: quotes sbatch" "sbatch"

# --- a task given two GPUs (--gres gpu:2) uses both (issue 35): the stand-in libcuda's pretend
# node of two GPUs, which Slurm hands each task as CUDA_VISIBLE_DEVICES=0,1 ---
atomic=reduction/sum-atomic
. "$E2E_SRC/tests/fakecuda/node.sh"
fakecuda_node "$E2E_SRC" 2 "$T"
check "the pretend node of two GPUs builds" $?
mkdir -p gsubs
for i in 1 2 3 4; do
    { echo "#define STUDENT \"g$i\""; fakecuda_source devsum $((i % 2 ? 4000 : 100000)); } >gsubs/g$i.cu
done
(
    export CUDALAB_DATADIR=$T/data LD_LIBRARY_PATH=$T/fake
    unset CUDA_VISIBLE_DEVICES
    run cudalab batch $atomic gsubs/* --out gl2 "${sandbox[@]}"
    expect_status "two GPUs, here: graded" 0
    run cudalab batch $atomic gsubs/* --out gs2 --slurm --chunk 2 --gres gpu:2 --wait "${sandbox[@]}"
    expect_status "--slurm --gres gpu:2: graded" 0
    python3 - gs2/parts/0 gs2/parts/1 <<'PY'
import glob, json, sys
for part in sys.argv[1:]:
    used = {json.load(open(f))["gpu"]["index"] for f in glob.glob(part + "/results/*.json")}
    assert used == {0, 1}, (part, used)
PY
    check "--slurm --gres gpu:2: each task timed on both of its GPUs" $?
    # the CPU baseline is timed for real, so the speed-up column varies from run to run; the
    # GPUs each submission went to differ too
    expect_eq "--slurm --gres gpu:2: the merged gradebook equals the local batch's" \
        "$(cut -d, -f1-6,8-10 gs2/gradebook.csv)" "$(cut -d, -f1-6,8-10 gl2/gradebook.csv)"
    expect_eq "--slurm --gres gpu:2: 2 PASS, 2 SLOW" \
        "$(cut -d, -f3 gs2/gradebook.csv | sort | uniq -c | awk '{print $2 $1}' | paste -sd' ')" \
        "PASS2 SLOW2 verdict1"
)

stop_cluster
trap - EXIT
expect_no_process "slurm: no slurmstepd or task left" "$T/gs/"
e2e_finish
