#!/bin/bash
# The chapters warp, divergence, occupancy and blockshape: listed in order,
# every starter and reference solution really compiled by nvcc and found to
# define its family's kernel (NO_GPU here), the occupancy calculator built as
# a shared object and its reference checked against cuda_occupancy.h, the block-shape lists and timing
# settings handed to the family drivers, and the real drivers' own argument
# checks and no-GPU reports.
set -u
. "$(dirname "$0")/lib.sh"
# compile and check without running: the simulator would grade them (test-grade-sim.sh does)
export CUDALAB_BACKEND=cuda

new_exercises="warp/thread-ids warp/active-lanes divergence/halfhalf divergence/evenodd
divergence/aos divergence/soa blockshape/sum-matrix-bounds blockshape/fastest-shape
occupancy/block-size"
# their starters use no shared memory: refused on the PTX before anything runs
shared_exercises="divergence/halfhalf-shared divergence/evenodd-shared"

# --- list and show ---
run cudalab list
expect_status "list" 0
expect_eq "list: the chapters in order, these four before reduction" \
    "$(grep -E '^[A-Z].*  \([a-z]+\)$' <<<"$OUT" | head -5)" \
    "Warp execution  (warp)
Warp divergence  (divergence)
Resources, latency hiding and occupancy  (occupancy)
Block shapes: sumMatrix  (blockshape)
Parallel reduction  (reduction)"
for ex in $new_exercises; do
    expect_out_re "list shows $ex" "^  $ex +.* +not started\$"
done
expect_out_re "list shows occupancy/calculator" '^  occupancy/calculator +An occupancy calculator +not started$'
[ -z "$ERR" ]
check "list reports no catalog problem" $?
run cudalab show warp/thread-ids
expect_out "show: the block shapes" "Block: 40x2, 8x4x2, 128, 16x3x3"
run cudalab show divergence/evenodd
expect_out "show: one block shape" "Block: 512   sizes: 2 1000 1048580 16777216"

# --- every starter and solution compiles and defines its family's kernel ---
for ex in $new_exercises; do
    ch=${ex%%/*} name=${ex#*/}
    for f in "$CUDALAB_DATADIR_TEST/exercises/$ex/starter.cu" "$CUDALAB_DATADIR_TEST/solutions/$ch/$name.cu"; do
        what=$ex:${f#"$CUDALAB_DATADIR_TEST"/}
        run cudalab grade "$ex" "$f" --no-record
        expect_status "$what: graded" 1
        expect_out_re "$what: compiles, defines the kernel, NO_GPU" '^NO_GPU  compiled for sm_90; no GPU'
    done
done

for ex in $shared_exercises; do
    ch=${ex%%/*} name=${ex#*/}
    run cudalab grade "$ex" "$CUDALAB_DATADIR_TEST/exercises/$ex/starter.cu" --no-record
    expect_status "$ex starter: graded" 1
    expect_out_re "$ex starter: the global version is refused" '^CONSTRAINT  shuffle[A-Za-z]+Shared does not use (ld|st)\.shared, which this exercise requires'
    run cudalab grade "$ex" "$CUDALAB_DATADIR_TEST/solutions/$ch/$name.cu" --no-record
    expect_status "$ex solution: graded" 1
    expect_out_re "$ex solution: shared memory and a barrier, NO_GPU" '^NO_GPU  compiled for sm_90; no GPU'
done
# a choice that is no shape of the list, or no choice at all: told before any GPU is needed
sed 's/chosenBlockX = 32;/chosenBlockX = 48;/' "$CUDALAB_DATADIR_TEST/exercises/blockshape/fastest-shape/starter.cu" >"$T/shape48.cu"
sed '/chosenBlock/d' "$CUDALAB_DATADIR_TEST/exercises/blockshape/fastest-shape/starter.cu" >"$T/noshape.cu"
for f in shape48 noshape; do
    CUDALAB_BACKEND=sim run cudalab grade blockshape/fastest-shape "$T/$f.cu" --no-record
    expect_status "fastest-shape $f: graded" 1
done
expect_out_re "fastest-shape without chosenBlockX: CONSTRAINT before it runs, says what to declare" \
    "^CONSTRAINT  $T/noshape.cu declares no chosenBlockX: say the block you choose with __device__ unsigned int chosenBlockX = ...;"
expect_out "fastest-shape without chosenBlockX: next, no barrier hint" \
    "next: the task forbids or requires"
expect_out_lacks "fastest-shape without chosenBlockX: nothing ran" "PTX simulator"
CUDALAB_BACKEND=sim run cudalab grade blockshape/fastest-shape "$T/shape48.cu" --no-record
expect_out_re "fastest-shape 48x32: CONSTRAINT before it runs, lists the shapes" \
    "^CONSTRAINT  $T/shape48.cu chooses block 48x32, which is not one of the shapes this exercise sweeps: 32x32, 32x16, "
expect_out_lacks "fastest-shape 48x32: nothing ran" "PTX simulator"

# --- the host-code exercise: a shared object, the real driver; without a GPU the answers are the
# lab's tables' for the architecture graded for (lab/grade/expected.c), and the verdict says so ---
run cudalab grade occupancy/calculator "$CUDALAB_DATADIR_TEST/solutions/occupancy/calculator.cu" --no-record
expect_status "occupancy/calculator: the reference passes without a GPU" 0
expect_out "occupancy/calculator: the reference, checked against the H100's table" \
    "PASS  correct at every size (no GPU: checked against the lab's tables for sm_90: H100, H200)   10/10 points"
ls "$CACHE"/*.so >/dev/null 2>&1
check "occupancy/calculator: built as a shared object" $?
run cudalab grade occupancy/calculator "$CUDALAB_DATADIR_TEST/exercises/occupancy/calculator/starter.cu" --no-record
expect_status "occupancy/calculator: the starter does not pass" 1
expect_out "occupancy/calculator: next, about host code's answer, not a block's" \
    "next: an answer came out wrong: work the case the message gives by hand"
expect_out "occupancy/calculator: the starter's first wrong answer, from the table" \
    "WRONG  wrong at n = 1: 1-thread blocks of 20-register threads, 1 B of shared memory per block (kernel labOccFew): blocks per SM returned 64, the lab's tables for sm_90 say 32"
# every example to its verdict, and all of it checked here: host code without speed runs in full
run cudalab check-exercise occupancy/calculator
expect_status "check-exercise occupancy/calculator without a GPU" 0
expect_out_re "check-exercise occupancy/calculator: every check made here, none left to a GPU" \
    '^check-exercise: [0-9]+ checks, [5-9] examples, 0 failed$'
# another architecture: its own limits and ptxas's registers for it (a T4 holds 16 blocks)
CUDALAB_ARCH=sm_75 run cudalab grade occupancy/calculator "$CUDALAB_DATADIR_TEST/exercises/occupancy/calculator/starter.cu" --no-record
expect_out "occupancy/calculator on sm_75: the T4's table" \
    "blocks per SM returned 32, the lab's tables for sm_75 say 16"
CUDALAB_ARCH=sm_75 run cudalab grade occupancy/calculator "$CUDALAB_DATADIR_TEST/solutions/occupancy/calculator.cu" --no-record
expect_out "occupancy/calculator on sm_75: the reference passes, naming the T4" \
    "(no GPU: checked against the lab's tables for sm_75: Tesla T4)"
# an architecture nvcc builds for but the tables lack: NO_GPU, saying why
CUDALAB_ARCH=sm_87 run cudalab grade occupancy/calculator "$CUDALAB_DATADIR_TEST/solutions/occupancy/calculator.cu" --no-record
expect_status "occupancy/calculator on sm_87: not graded" 1
expect_out_re "occupancy/calculator on sm_87: NO_GPU, no tables for it" \
    '^NO_GPU  compiled; no GPU to run it on: .* \(the lab has no tables for sm_87\)'
# the driver refuses tables without their numbers
run "$CUDALAB_LIBEXECDIR_TEST/cudalab-driver" host-occupancy --backend=host --report-fd=3 \
    --lab-kernels="$CUDALAB_LIBEXECDIR_TEST/lab-kernels.ptx" --student=/nonexistent.so \
    --reference=/nonexistent.so --baseline=cpu --kernel=maxActiveBlocksPerSM --entry=x --sizes=1 \
    --occupancy-tables=sm_90 --occupancy-device=1,2,3 --occupancy-kernels=1:0 \
    --occupancy-expected=1 3>"$T/report-tables.json"
expect_status "host-occupancy: tables without their numbers: a report" 0
OUT=$(<"$T/report-tables.json")
expect_json "host-occupancy: tables without their numbers are an error of the lab's" \
    'j["status"] == "error" and j["error"]["role"] == "reference" and "--occupancy-tables needs --occupancy-device (12 numbers)" in j["reason"]'

# the reference against CUDA's own calculator (cuda_occupancy.h), H100 and A100 limits
run "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)" -o "$T/against-header" "$CUDALAB_DATADIR_TEST/tests/occupancy/against-header.cu"
expect_status "the cuda_occupancy.h check compiles" 0
run "$T/against-header"
expect_status "the reference agrees with cuda_occupancy.h" 0
expect_out_re "... on every configuration" '^[0-9]{6,} configurations, 0 differ$'

# --- what the family drivers are told ---
. "$E2E_SRC/tests/e2e/fake-gpu.sh"
for fam in warp-ids warp-active shuffle-int sum-matrix records-int table-map host-occupancy; do
    # the GPU's run only (the simulator's beside it records nothing); started while nvcc compiled
    # (--wait-args), it reads the rest of its arguments first
    printf '#!/bin/bash\n# %s\n%s\n%s\nprintf "%%s\\n" "$@" >"%s/args-%s"\n' "$E2E_MARK" \
        'case " $* " in *" --backend=sim "*) exit 0 ;; esac' \
        'case " $* " in *" --wait-args "*) while IFS= read -r -d "" a && [ -n "$a" ]; do set -- "$@" "$a"; done ;; esac' \
        "$T" "$fam" >"$fx/$fam"
    chmod +x "$fx/$fam"
done
args_of() { # EXERCISE FAMILY: grade with the recording driver; its arguments in $a
    CUDALAB_LIBEXECDIR=$fx CUDALAB_ARCH=sm_90 run cudalab grade "$1" \
        "$CUDALAB_DATADIR_TEST/solutions/${1%%/*}/${1#*/}.cu" --no-record
    a=$(cat "$T/args-$2")
}
args_of warp/thread-ids warp-ids
expect_out_re "a driver without a report: RUNTIME_ERROR" '^RUNTIME_ERROR  '
expect_eq "warp/thread-ids: every block shape" "$(grep -- '^--block=' <<<"$a")" "--block=40x2,8x4x2,128,16x3x3"
expect_eq "warp/thread-ids: cpu baseline" "$(grep -- '^--baseline=' <<<"$a")" "--baseline=cpu"
expect_eq "warp/thread-ids: no timing sizes" "$(grep -c -- '^--timing-sizes' <<<"$a")" 0
expect_eq "warp/thread-ids: the sizes" "$(grep -- '^--sizes=' <<<"$a")" "--sizes=1,100,1000,1048576"
args_of warp/active-lanes warp-active
expect_eq "warp/active-lanes: the shapes" "$(grep -- '^--block=' <<<"$a")" "--block=40x2,8x4x2,128,100,16x3x3"
args_of divergence/evenodd shuffle-int
expect_eq "divergence/evenodd: baseline kernel" "$(grep -- '^--baseline-kernel=' <<<"$a")" \
    "--baseline-kernel=shuffleHalfHalf"
expect_eq "divergence/evenodd: timed at 2^24" "$(grep -- '^--timing-sizes=' <<<"$a")" "--timing-sizes=16777216"
expect_eq "divergence/evenodd: one 1D block" "$(grep -- '^--block=' <<<"$a")" "--block=512"
args_of divergence/soa records-int
expect_eq "divergence/soa: the AoS kernel is the baseline" "$(grep -- '^--baseline-kernel=' <<<"$a")" \
    "--baseline-kernel=keysFromRecords"
expect_eq "divergence/soa: timed at 2^24" "$(grep -- '^--timing-sizes=' <<<"$a")" "--timing-sizes=16777216"
args_of blockshape/sum-matrix-bounds sum-matrix
expect_eq "blockshape/sum-matrix-bounds: 2D shapes (256x1 is 256)" "$(grep -- '^--block=' <<<"$a")" \
    "--block=32x32,40x2,128x2,16x16,256"
expect_eq "blockshape/sum-matrix-bounds: no choice" "$(grep -c -- '^--choose-block' <<<"$a")" 0
args_of blockshape/fastest-shape sum-matrix
expect_eq "blockshape/fastest-shape: the notes' 14 launchable shapes to sweep" "$(grep -- '^--block=' <<<"$a")" \
    "--block=32x32,32x16,16x32,16x16,64x2,64x4,64x8,128,128x2,128x4,128x8,256,256x2,256x4"
expect_eq "blockshape/fastest-shape: the file chooses" "$(grep -c -- '^--choose-block$' <<<"$a")" 1
expect_eq "blockshape/fastest-shape: timed at 4099" "$(grep -- '^--timing-sizes=' <<<"$a")" "--timing-sizes=4099"
args_of occupancy/block-size table-map
expect_eq "occupancy/block-size: 15 block sizes to sweep" "$(grep -- '^--block=' <<<"$a")" \
    "--block=32,64,96,128,192,256,320,384,448,512,576,640,768,896,1024"
expect_eq "occupancy/block-size: the file chooses" "$(grep -c -- '^--choose-block$' <<<"$a")" 1
args_of occupancy/calculator host-occupancy
expect_eq "occupancy/calculator on a GPU: the API's answers, not the tables'" \
    "$(grep -c -- '^--occupancy-' <<<"$a")" 0
args_of divergence/halfhalf-shared shuffle-int
expect_eq "divergence/halfhalf-shared: against global half-by-half" "$(grep -- '^--baseline-kernel=' <<<"$a")" \
    "--baseline-kernel=shuffleHalfHalf"

# --- the real family drivers: argument checks, then no GPU ---
for fam in warp-ids warp-active shuffle-int branch-int sum-matrix records-int table-map; do
    drv=$CUDALAB_LIBEXECDIR_TEST/cudalab-driver
    common=(--report-fd 3 --lab-kernels "$CUDALAB_LIBEXECDIR_TEST/lab-kernels.ptx" --student s.cubin
        --baseline cpu --reference r.cubin --kernel k --entry _Z1kv --sizes 1000)
    for bad in 256x8 0 40x2x2x2 32x 2048 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17; do
        run "$drv" "$fam" "${common[@]}" --block "$bad"
        expect_status "$fam --block $bad: refused" 2
        expect_err "$fam --block $bad: says what a shape is" "--block needs up to 16 shapes X, XxY or XxYxZ of 1..1024 threads"
    done
    run "$drv" "$fam" "${common[@]}" --block 40x2,8x4x2 3>"$T/report-$fam.json"
    expect_status "$fam without a GPU: a report" 0
    OUT=$(<"$T/report-$fam.json")
    expect_json "$fam without a GPU: status no_gpu, its family" \
        'j["status"] == "no_gpu" and j["family"] == "'$fam'" and j["block"] == 80'
done

e2e_finish
