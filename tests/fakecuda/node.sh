# tests/fakecuda/node.sh - a pretend node of GPUs for whole gradings, sourced by
# tests/e2e/test-batch-gpus.sh, tests/e2e/test-slurm.sh and tests/gpu/batch-300.sh
# (BATCH_PRETEND): the stand-in libcuda (fakecuda.c beside this file) built with a node of its
# own, and a copy of the lab's data in which reduction/sum-atomic checks small sizes (the stand-in
# sums them on the host) and whose reference holds the stand-in's key line.  Sourced, never run.

# fakecuda_node SRC N DIR: DIR/fake/libcuda.so.1, a node of N identical GPUs (a sandbox may pass
# the driver no FAKECUDA_DEVICES, so the number is built in), and DIR/data, the lab's data of the
# source tree SRC so changed.  Put DIR/fake on LD_LIBRARY_PATH and CUDALAB_DATADIR=DIR/data.
fakecuda_node() {
    local src=$1 n=$2 dir=$3
    FAKECUDA_SRC=$src
    mkdir -p "$dir/fake" "$dir/data/kernels" || return
    cc -shared -fPIC -O1 -DFAKECUDA_DEVICES="$n" -o "$dir/fake/libcuda.so.1" \
        "$src/tests/fakecuda/fakecuda.c" || return
    cp -R "$src/exercises" "$src/solutions" "$src/docs" "$dir/data/" &&
        cp -R "$src/kernels/gpus" "$dir/data/kernels/" && chmod -R u+w "$dir/data" || return
    sed -i 's/^sizes = .*/sizes = 1, 1000, 4097/; s/^timing_sizes = .*/timing_sizes = 4097/' \
        "$dir/data/exercises/reduction/sum-atomic/exercise.ini"
    fakecuda_source devsum 4000 >"$dir/data/solutions/reduction/sum-atomic.cu"
}

# fakecuda_source MODE COST: sum-atomic's reference solution (of fakecuda_node's SRC) with the line the
# stand-in reads from its cubin: it runs the kernel as MODE (devsum: right; racy: a lost update)
# at COST ns a launch on its clock (the reference's is 4000).
fakecuda_source() {
    echo "__device__ char lab_fake_module[] = \"mode=$1 unroll=1 cost=$2 sum_bytes=4 \";"
    cat "$FAKECUDA_SRC/solutions/reduction/sum-atomic.cu"
}
