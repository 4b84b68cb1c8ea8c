#!/bin/bash
# The float reduction steps without a GPU: every reference solution and every
# starter really compiles with nvcc and meets (or, where the step says so,
# breaks) the exercise's PTX constraints; a planted violation is refused.
set -u
. "$(dirname "$0")/lib.sh"

export CUDALAB_ARCH=sm_90
# the GPU backend asked for: what builds and checks without running (test-grade-sim.sh runs them)
export CUDALAB_BACKEND=cuda
sol=$CUDALAB_DATADIR_TEST/solutions/reduction
exd=$CUDALAB_DATADIR_TEST/exercises/reduction

# what an untouched starter gets here: NO_GPU when it compiles and meets the
# constraints (its fault only shows on a GPU), CONSTRAINT when the step
# demands a form the previous step lacks
declare -A starter_verdict=(
    [sum-atomic]=NO_GPU [sum-shared-atomic]=CONSTRAINT [sum-tournament]=CONSTRAINT
    [sum-reversed]=NO_GPU [sum-add-first]=NO_GPU [sum-last-warp]=CONSTRAINT
    [sum-shuffle]=CONSTRAINT [sum-two-level]=CONSTRAINT
)
for s in sum-atomic sum-shared-atomic sum-tournament sum-reversed sum-add-first sum-last-warp \
    sum-shuffle sum-two-level; do
    run cudalab grade "reduction/$s" "$sol/$s.cu" --no-record
    expect_out_re "$s: the reference compiles and meets the constraints (NO_GPU)" '^NO_GPU  '
    run cudalab grade "reduction/$s" "$exd/$s/starter.cu" --no-record
    expect_out_re "$s: the starter gets ${starter_verdict[$s]}" "^${starter_verdict[$s]}  "
done
run cudalab grade reduction/sum-shared-atomic "$exd/sum-shared-atomic/starter.cu" --no-record
expect_out "sum-shared-atomic starter: names the missing shared atomic" \
    "sumSharedAtomic does not use an atomic operation on shared memory, which this exercise requires"
run cudalab grade reduction/sum-shuffle "$exd/sum-shuffle/starter.cu" --no-record
expect_out "sum-shuffle starter: names the missing shuffle" \
    "sumShuffle does not use a warp collective (a shuffle, reduce, vote or match), which this exercise requires"

# planted: the two-level reference with its store turned into an atomic
sed 's/pPartial\[blockIdx.x\] = v;/atomicAdd(\&pPartial[0], v);/' "$sol/sum-two-level.cu" >planted.cu
grep -q 'atomicAdd(&pPartial\[0\], v)' planted.cu
check "planted: the atomic is in the file" $?
run cudalab grade reduction/sum-two-level planted.cu --no-record
expect_out_re "planted atomic in the two-level kernel: CONSTRAINT" '^CONSTRAINT  '
expect_out_re "planted atomic: names the CUDA and its line" \
    'atomicAdd at planted\.cu:[0-9]+ is an atomic operation, which this exercise forbids'

# the GPU tests' planted float faults still apply to the references, and the result compiles
planted=$E2E_SRC/tests/gpu/planted
sed -f "$planted/float-no-tail.sed" "$sol/sum-add-first.cu" >no-tail.cu
grep -q 'planted: no bound' no-tail.cu
check "planted float-no-tail applies to the sum-add-first reference" $?
run cudalab grade reduction/sum-add-first no-tail.cu --no-record
expect_out_re "planted float-no-tail compiles (NO_GPU here, WRONG on a GPU)" '^NO_GPU  '
sed -f "$planted/float-missing-partial.sed" "$sol/sum-two-level.cu" >missing-partial.cu
grep -q 'blockIdx.x + 1 < gridDim.x) pPartial' missing-partial.cu
check "planted float-missing-partial applies to the sum-two-level reference" $?
run cudalab grade reduction/sum-two-level missing-partial.cu --no-record
expect_out_re "planted float-missing-partial compiles (NO_GPU here, WRONG on a GPU)" '^NO_GPU  '

e2e_finish
