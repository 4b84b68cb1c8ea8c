#!/bin/bash
# What to do next after a WRONG or a RUNTIME_ERROR depends on what was found, on the
# simulator (no GPU): a warp-synchronous hazard, an index out of bounds, a barrier that half
# the lanes reach, a result never written, a wrong value, a child grid of an invalid shape;
# each gets its own next: line, not the one line every WRONG had.
set -u
. "$(dirname "$0")/lib.sh"

src=$CUDALAB_DATADIR_TEST

# --- what to do next depends on what was found -----------------------------------
run cudalab grade reduction/neighbored-less "$src/tests/gpu/planted/wrong.cu" --no-record
expect_out "no barrier between rounds: next, about the warp's lanes" \
    "next: lanes of one warp read what other lanes write with no barrier between: a __syncthreads()"
expect_out "no barrier between rounds: the finding names __syncthreads first (issue 21)" \
    "with no barrier between (__syncthreads(), or __syncwarp() within a warp;"
run cudalab grade reduction/neighbored-less "$src/tests/gpu/planted/out-of-bounds.cu" --no-record
expect_out "out-of-bounds store: next, about the index" "next: an index past the end of an array"
less_ref=$src/solutions/reduction/neighbored-less.cu
sed 's|        __syncthreads();|        if (tid % 2 == 0) __syncthreads();|' "$less_ref" >"$T/half-barrier.cu"
run cudalab grade reduction/neighbored-less "$T/half-barrier.cu" --no-record
expect_out "a barrier half the lanes reach: found" "barrier in divergent code"
expect_out "a barrier half the lanes reach: next, about the barrier" \
    "next: a __syncthreads() that threads still running skip: move it out of the if (a thread that has returned is not waited for)"
sed 's|^    unsigned int tid = threadIdx.x;|&\n    if (blockIdx.x > 0) return;|' "$less_ref" >"$T/one-block.cu"
run cudalab grade reduction/neighbored-less "$T/one-block.cu" --no-record
expect_out "only block 0 stores: never written" "g_odata[1] was never written"
expect_out "only block 0 stores: next, about the store" "next: a result never stored"
run cudalab grade divergence/halfhalf "$src/exercises/divergence/halfhalf/starter.cu" --no-record
expect_out "a store past n: found" ", past n = "
expect_out "a store past n: next, about the bound" "next: an element past n was written"
run cudalab grade reduction/neighbored "$src/exercises/reduction/neighbored/starter.cu" --no-record
expect_out "a wrong sum: next, about the values" "next: a value came out wrong: work the first wrong block"
expect_out_lacks "a wrong sum: not the advice for every WRONG" "its range, the tail past n, the barriers"
expect_out_lacks "a wrong sum on the simulator: no rounds, which only a GPU runs" "rounds"
sed 's|nestedReduce<<<1, istride>>>|nestedReduce<<<1, istride * 4096>>>|' \
    "$src/solutions/dynpar/nested-reduce.cu" >"$T/child-shape.cu"
run cudalab grade dynpar/nested-reduce "$T/child-shape.cu" --no-record
expect_out_re "an invalid child-grid shape: RUNTIME_ERROR" '^RUNTIME_ERROR  nestedReduce could not be launched'
expect_out "an invalid child-grid shape: next, about the launch's shape" \
    "next: a launch with a grid or block the GPU refuses: at most 1024 threads a block"
expect_out_lacks "an invalid child-grid shape: not an index past the end" "an index past the end"

e2e_finish
