#!/bin/bash
# e2e-timeout: 300
# cudalab inspect through the real binary, real nvcc, ptxas and nvdisasm, no
# GPU: every exercise's solution and starter, the SASS marks and source lines,
# --gpu, --ptx, --summary, --json, --diff and --previous, and the errors.
set -u
. "$(dirname "$0")/lib.sh"

# nvdisasm from `make deps` (tools/cuda/bin) when neither PATH nor the toolkit has it
export CUDALAB_TOOLS_DIR=${CUDALAB_TOOLS_DIR_TEST:-$E2E_SRC/tools/cuda/bin}
J() { python3 -c "import json,sys; d=json.load(open('$T/.out')); print($1)"; }

listed=$(cudalab list --json)
kind_of() { python3 -c 'import json,sys; [print(e["id"]) for e in json.load(sys.stdin)["exercises"] if e["kind"] == "'"$1"'"]' <<<"$listed"; }
exercises=$(kind_of device)
host_exercises=$(kind_of host)
for ex in $host_exercises; do
    ch=${ex%%/*} name=${ex#*/}
    run cudalab inspect "$ex" "$E2E_SRC/solutions/$ch/$name.cu"
    expect_status "inspect host code $ex" 2
    expect_err "inspect $ex says there is no kernel" "$ex is host code: there is no kernel to inspect"
done
# starters that are a compile error by design (CUDA 12 removed what they call)
compile_error_starters=" dynpar/nested-reduce "
# every exercise's solution and starter: nvcc, ptxas and nvdisasm are nearly all of this test's
# time, so two run at once (the machine's two cores), and the checks read each run after
for ex in $exercises; do
    ch=${ex%%/*} name=${ex#*/}
    printf '%s\t%s\n' "$ex" "$E2E_SRC/solutions/$ch/$name.cu" "$ex" "$E2E_SRC/exercises/$ch/$name/starter.cu"
done >"$T/inspected.tsv"
run_each 2 "$T/inspected" cudalab inspect --json --summary --no-run <"$T/inspected.tsv"
n=0
while IFS=$'\t' read -r ex f; do
    n=$((n + 1))
    what="$ex $(basename "$f")"
    adopt_run "$T/inspected/$n" cudalab inspect "$ex" "$f" --json --summary --no-run
    if [ "${f##*/}" = starter.cu ] && [[ $compile_error_starters == *" $ex "* ]]; then
        expect_status "inspect $what" 2
        expect_err "inspect $what: does not compile, nvcc's message at its line" \
            "starter.cu:$(grep -n 'cudaDeviceSynchronize();' "$f" | cut -d: -f1): error:"
        continue
    fi
    expect_status "inspect $what" 0
    regs='' occ='' sass=''
    read -r regs occ sass < <(python3 -c 'import json; d = json.load(open("'"$T/.out"'")); print(d["kernel"]["registers"], d["occupancy"]["occupancy"], d["sass_mix"]["total"])' 2>/dev/null)
    [ -n "${regs:-}" ] && [ "${regs:-0}" -gt 0 ] && [ -n "${occ:-}" ] && [ "${sass:-0}" -gt 0 ]
    check "inspect $what: registers (${regs:-}), occupancy (${occ:-}), SASS (${sass:-} instructions)" $?
done <"$T/inspected.tsv"
expect_eq "every exercise's solution and starter inspected" "$n" "$((2 * $(wc -w <<<"$exercises")))"

# the text view: resources, occupancy, SASS with the student's lines and marks
sol=$E2E_SRC/solutions/reduction/neighbored-less.cu
run cudalab inspect reduction/neighbored-less "$sol"
expect_status "inspect text" 0
expect_out_re "registers line" '^  registers [0-9]+   barriers 1 '
expect_out "occupancy on sm_90 at the exercise's block" "occupancy at block 512 (16 warps) on sm_90"
expect_out "source line interleaved" "if (index + stride < count) {"
expect_out_re "barrier marked" 'BAR\.SYNC.*<- barrier \(__syncthreads\)'
expect_out_re "conditional branch marked" '@!?P[0-9] BRA .*<- branch: the warp may diverge here'
# why it is as fast as it is, without a GPU (issue 20): the model's times at the timing size,
# each role's bound as a bar, as a grading on the simulator shows them
expect_out "the modelled speed: its heading says modelled" \
    "Speed on the simulator: what bounds each kernel (modelled, not measured)"
expect_out "the modelled speed: H100 times at the timing size, from the model's size" \
    "  modelled H100 times at n = 16777216, from the simulator's counts at n = 262144"
for role in student baseline reference; do
    expect_out_re "the modelled speed: the $role's time, bar and bound" \
        "^  $role +[0-9.]+ us  #+\.* (DRAM bandwidth|L2 bandwidth|L1 bandwidth|instruction issue|shared memory|memory latency|atomics|starting blocks|launch) +then "
done

# beside the static mark, what the simulator saw: the notes' reduceNeighbored at n = 1000 (two
# blocks, 32 warps): its loop test (line 31) is the same for the whole warp, so it never splits
# one although the listing can only say "may diverge"; tid % (2*stride) (line 32) splits them
nb=$E2E_SRC/exercises/reduction/neighbored/starter.cu
loop=$(grep -n 'for (int stride = 1' "$nb" | cut -d: -f1)
pick=$(grep -n 'if ((tid % (2 \* stride)) == 0)' "$nb" | cut -d: -f1)
run cudalab inspect reduction/neighbored "$nb"
expect_status "inspect with the simulator's branch runs" 0
expect_out "the runs' heading names the size" "Branches on the simulator (n = 1000;"
expect_out_re "the loop's branches: uniform" "^  line $loop \(2 branches\): ran [1-9][0-9]* times, diverged 0: uniform$"
expect_out_re "the pick's branch: diverged" "^  line $pick: ran [1-9][0-9]* times, diverged [1-9][0-9]*$"
grep -A1 -E '@!?P[0-9] BRA .*<- branch: the warp may diverge here' <<<"$OUT" >"$T/beside.txt"
grep -Eq "^ +on the simulator, line $loop: ran [0-9]+ times, diverged 0: uniform" "$T/beside.txt"
check "the listing: beside the loop's static mark, the simulator's uniform count" $?
run cudalab inspect reduction/neighbored "$nb" --json --summary
expect_eq "--json: the runs per line, at the simulator's size" \
    "$(J '[(r["line"], r["divergent"] == 0) for r in d["branch_runs"]["lines"] if r["line"] in ('"$loop, $pick"')], d["branch_runs"]["size"]')" \
    "[($loop, True), ($pick, False)] 1000"
# over the CPU (neighbored's baseline) only the student and the reference are modelled
expect_json "--json: over the CPU, the baseline is not modelled" \
    'sorted(j["model"]["roles"]) == ["reference", "student"]'
run cudalab inspect reduction/neighbored-less "$sol" --json --summary
expect_json "--json: the modelled times and bounds, as grade --json has them" \
    'j["model"]["gpu"] == "H100" and j["model"]["timed_size"] == 16777216
     and all(j["model"]["roles"][r]["ns"] > 0 and j["model"]["roles"][r]["bound"] for r in ("student", "baseline", "reference"))'
run cudalab inspect reduction/neighbored-less "$sol" --json --summary --no-run
expect_json "--no-run: no model run either" '"model" not in j and "model_unavailable" not in j'
# --gpu NAME, a GPU the model knows rather than an architecture: its times, sm_90's build
run cudalab inspect reduction/neighbored-less "$sol" --summary --gpu h200
expect_out "--gpu h200: the modelled times are the H200's" \
    "  modelled H200 times at n = 16777216, from the simulator's counts at n = 262144"
expect_out "--gpu h200: built for the H200's architecture, the default" "  on sm_90"
run cudalab inspect reduction/neighbored-less "$sol" --summary --gpu b300
expect_status "--gpu b300: neither an architecture nor a GPU the model knows" 2
expect_err "--gpu b300: both lists" \
    "--gpu 'b300' is not an architecture the lab knows (sm_75, sm_80, sm_86, sm_89, sm_90, sm_100, sm_120), and unknown GPU 'b300': the model knows a100, h100, h200, l4, rtx4090"

# a choice exercise: the occupancy is for the shape the file picks, not the exercise's first
run cudalab inspect blockshape/fastest-shape "$E2E_SRC/solutions/blockshape/fastest-shape.cu"
expect_out "occupancy at the file's chosen 128x2 block" \
    "occupancy at block 256 (8 warps; your chosenBlockX 128, chosenBlockY 2) on sm_90"
expect_out "a choice exercise: its speed not modelled, said why" \
    "Speed on the simulator: not modelled: inspect does not sweep block shapes; cudalab grade models every shape"
printf '__device__ unsigned int chosenBlockX = 512;\n' >"$T/choice.cu"
sed '/chosenBlockX/d' "$E2E_SRC/exercises/occupancy/block-size/starter.cu" >>"$T/choice.cu"
run cudalab inspect occupancy/block-size "$T/choice.cu" --json --summary
expect_eq "--json: the chosen block" "$(J 'd["occupancy"]["block"]')" 512
expect_eq "--json: where it comes from" "$(J 'd["occupancy"]["chosen"]')" "chosenBlockX 512"

run cudalab inspect reduction/neighbored-less "$sol" --ptx
expect_status "inspect --ptx" 0
expect_out_re "PTX with bar.sync marked" 'bar\.sync.*<- barrier'

run cudalab inspect reduction/neighbored-less "$sol" --gpu sm_75 --json --summary
expect_status "inspect --gpu sm_75" 0
expect_eq "--gpu sm_75 builds for sm_75" "$(J 'd["arch"]')" sm_75
expect_eq "sm_75 has 32 warps per SM" "$(J 'd["occupancy"]["max_warps"]')" 32

# a kernel that selects instead of branching, and one with volatile and vector accesses
mkdir -p "$T/k"
cp "$E2E_SRC/tests/fixtures/sass/math-kernel1.cu" "$T/k/m.cu"
sed -i 's/mathKernel1(float \*c)/reduceNeighboredLess(int *g, int *o, unsigned n)/; s/c\[tid\] = a + b;/o[tid] = (int)(a + b);/' "$T/k/m.cu"
run cudalab inspect reduction/neighbored-less "$T/k/m.cu"
expect_status "inspect a select kernel" 0
expect_out_re "FSEL marked as a select" 'FSEL.*<- select: both sides computed, no branch'
expect_out_lacks "no conditional branch in it" "the warp may diverge"
cat >"$T/k/v.cu" <<'CU'
__global__ void reduceNeighboredLess(int *g, int *o, unsigned n) {
    volatile int *v = g;
    v[threadIdx.x] += v[threadIdx.x + 32];
    reinterpret_cast<int4 *>(o)[threadIdx.x] = reinterpret_cast<int4 *>(g)[threadIdx.x + 64];
}
CU
run cudalab inspect reduction/neighbored-less "$T/k/v.cu"
expect_status "inspect volatile and vector" 0
expect_out_re "LDG.E.STRONG.SYS marked" 'LDG\.E\.STRONG\.SYS.*<- strong system-scope access \(volatile\)'
expect_out_re "LDG.E.128 marked" 'LDG\.E\.128.*<- vector access'

# diffs
run cudalab inspect reduction/neighbored-less "$sol" --previous
expect_status "inspect --previous" 0
expect_out "diff names the previous step" "(reduceNeighbored)"
expect_out_re "diff rows" '^  registers +[0-9]+ +[0-9]+'
expect_out_re "diff of the instruction mix" '^  instructions +[0-9]+ +[0-9]+'
run cudalab inspect reduction/neighbored-less "$T/k/v.cu" --diff "$sol" --json
expect_status "inspect --diff --json" 0
expect_eq "--diff: B has strong-sys accesses" "$(J 'd["b"]["sass_mix"]["marks"]["strong-sys"] > 0')" True
expect_eq "--diff: A has none" "$(J 'd["a"]["sass_mix"]["marks"]["strong-sys"]')" 0
run cudalab inspect reduction/neighbored "$E2E_SRC/solutions/reduction/neighbored.cu" --previous
expect_status "the first GPU step has no previous step" 2
expect_err "says so" "has no previous step"

# errors
run cudalab inspect
expect_status "inspect without an exercise" 2
expect_err "gives its usage" "usage: cudalab inspect EXERCISE"
run cudalab inspect reduction/neighbored-less "$sol" --gpu sm_61
expect_status "unknown --gpu" 2
expect_err "names the known ones" "sm_75, sm_80, sm_86, sm_89, sm_90, sm_100, sm_120"
run cudalab inspect reduction/neighbored-less "$T/nothing.cu"
expect_status "missing file" 2
expect_err "names it" "cannot read '$T/nothing.cu'"
printf '__global__ void reduceNeighboredLess(int *g, int *o, unsigned n) { o[0] = nope; }\n' >"$T/k/bad.cu"
run cudalab inspect reduction/neighbored-less "$T/k/bad.cu"
expect_status "a compile error" 2
expect_err "shows nvcc's message at file:line" "bad.cu:1: error"
run cudalab inspect reduction/neighbored-less "$sol" --diff
expect_status "--diff without a file" 2
run env CUDALAB_TOOLS_DIR=/nonexistent CUDALAB_NVDISASM= PATH=/usr/bin:/bin CUDA_HOME=/nonexistent \
    "$CUDALAB_TEST_BIN" inspect reduction/neighbored-less "$sol" --summary
if [ -x /usr/local/cuda/bin/nvdisasm ]; then
    pass "nvdisasm is in the toolkit: the missing-tool message cannot be shown here"
else
    expect_status "no nvdisasm: the rest still works" 0
    expect_out "no nvdisasm: says what to do" "SASS: not available: nvdisasm not found"
    expect_out "no nvdisasm: names make deps" "make deps"
fi
e2e_finish
